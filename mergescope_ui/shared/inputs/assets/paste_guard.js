// The paste guard (a Streamlit components v2 component with no visible part; paste_guard.py): a paste
// into a Streamlit text area inserts at most the page's limit of characters, at once, never half an emoji.
/** @param {FrontendRendererArgs<FrontendState, {max_chars: number}>} component */
export default function (component) {
  window.__msPasteLimit = component.data.max_chars;
  if (window.__msPasteGuard) return;  // one listener per page, however often the element is drawn
  window.__msPasteGuard = true;
  document.addEventListener("paste", (event) => {
    const box = event.target;
    if (!(box instanceof HTMLTextAreaElement) || !box.closest('[data-testid="stTextArea"]')) return;
    const text = event.clipboardData ? event.clipboardData.getData("text/plain") : "";
    const limit = window.__msPasteLimit;
    const room = limit - (box.value.length - (box.selectionEnd - box.selectionStart));
    if (text.length <= room) return;
    event.preventDefault();
    let cut = Math.max(0, room);
    if (cut > 0 && /[\uD800-\uDBFF]/.test(text[cut - 1])) cut -= 1;  // never half an emoji
    document.execCommand("insertText", false, text.slice(0, cut));
  }, true);
}
