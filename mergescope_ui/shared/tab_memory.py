"""A value this browser tab keeps across reloads (its ``sessionStorage``), with no cookie and no URL.

A teacher's room is driven by a secret (the host key, :mod:`mergescope_ui.shared.rooms`) that must
not travel in a link a teacher may copy or show as a QR code.  The tab keeps it
instead: ``sessionStorage`` lives as long as the tab, survives a reload, and is
not shared with other tabs or other browsers.  After a reload the new session
has no key; :func:`tab_memory` mounts a small component (components v2, no
iframe) that reads what the tab kept and sends it back, and the page reruns with it.
"""

from __future__ import annotations

import streamlit as st

_JS = r"""
export default function (component) {
  const { data, setStateValue } = component;
  const name = "mergescope:" + data.name;
  try {
    if (data.value === null) {
      const kept = window.sessionStorage.getItem(name);
      if (kept && kept !== data.known) setStateValue("value", kept);
    } else if (data.value === "") {
      window.sessionStorage.removeItem(name);
    } else {
      window.sessionStorage.setItem(name, data.value);
    }
  } catch (error) {
    // No storage (a private window may refuse it): a reload then loses the value, nothing else.
  }
}
"""
_MEMORY = st.components.v2.component("mergescope_tab_memory", js=_JS)


def tab_memory(name: str, *, key: str, value: str | None) -> str | None:
    """Keep ``value`` in this tab under ``name`` ("" forgets it); with ``value`` None, what the tab kept
    (None until the browser has answered, which reruns the page)."""
    known = (st.session_state.get(key) or {}).get("value")
    _MEMORY(key=key, data={"name": name, "value": value, "known": known}, on_value_change=lambda: None)
    return str(known) if isinstance(known, str) and known else None
