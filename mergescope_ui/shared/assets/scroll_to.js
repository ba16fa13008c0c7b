// Bring the elements a selector names just under Streamlit's header, once per serial (a Streamlit
// components v2 component, no iframe; scroll_to.py).
/** @param {FrontendRendererArgs<FrontendState, {selector: string, serial: string}>} component */
export default function (component) {
  const { data } = component;
  const parentElement = /** @type {HTMLElement} */ (component.parentElement); // isolate_styles=False
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
    const by = top - below - 8;
    // A part still opening (an expander's content drawn a moment later) leaves the page too short to
    // scroll that far yet: look again a few times while it grows.
    const room = main.scrollHeight - main.clientHeight - main.scrollTop;
    if (by > room + 2 && ++tries < 30) setTimeout(go, 50);
    main.scrollBy({ top: by, behavior: by > room + 2 ? "auto" : behavior });
  };
  requestAnimationFrame(go);
}
