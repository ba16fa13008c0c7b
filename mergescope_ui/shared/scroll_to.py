"""Bring a part of the page into view once, as a result appears (a components v2 component, no iframe).

Streamlit keeps the scroll position when a rerun draws something new further down, so a result a
click produced can appear out of sight.  :func:`scroll_to` mounted in the run that first draws the
result scrolls the main area until the elements ``selector`` names sit just under Streamlit's header.
Mount it in that run only (a flag popped from ``session_state``): it does nothing on later reruns.
"""

from __future__ import annotations

import streamlit as st

_JS = r"""
export default function (component) {
  const { parentElement, data } = component;
  if (parentElement.dataset.scrolled === data.serial) return;  // once per result
  parentElement.dataset.scrolled = data.serial;
  let tries = 0;
  const go = () => {
    const targets = [...document.querySelectorAll(data.selector)];
    const main = document.querySelector('[data-testid="stMain"]');
    if (!targets.length || !main) return ++tries < 20 && setTimeout(go, 50);  // drawn a moment later
    const top = Math.min(...targets.map((t) => t.getBoundingClientRect().top));
    const header = document.querySelector('[data-testid="stHeader"]');
    const below = header ? header.getBoundingClientRect().bottom : 0;
    const behavior = window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";
    main.scrollBy({ top: top - below - 8, behavior });
  };
  requestAnimationFrame(go);
}
"""
_COMPONENT = st.components.v2.component("mergescope_scroll_to", js=_JS, isolate_styles=False)


def scroll_to(selector: str, *, key: str, serial: int) -> None:
    """Scroll the elements ``selector`` matches (a constant CSS selector, never user text) into view,
    once per ``serial``."""
    _COMPONENT(key=key, data={"selector": selector, "serial": str(serial)})
