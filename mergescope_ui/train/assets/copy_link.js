// The Train page's "Copy link" button (a Streamlit components v2 component, no iframe; link.py): it
// copies the page's own URL, which follows the step the stage shows, and says whether that worked.
/** link.py's data: the button's label and what the status says after a copy, or a failed one.
 * @typedef {{label: string, copied: string, failed: string}} CopyLink */

/** @param {FrontendRendererArgs<FrontendState, CopyLink>} component */
export default function (component) {
  const { parentElement, data } = component;
  let button = parentElement.querySelector("button");
  let status = parentElement.querySelector("span");
  if (!button) {
    button = document.createElement("button");
    button.type = "button";
    button.className = "ms-copy-link";
    status = document.createElement("span");
    status.className = "ms-copy-status";
    status.setAttribute("aria-live", "polite");
    parentElement.append(button, status);
  }
  button.textContent = data.label;
  button.onclick = async () => {
    const url = window.location.href;  // the page's own URL: it follows every step the stage shows
    let done = false;
    try {
      await navigator.clipboard.writeText(url);
      done = true;
    } catch (error) {
      // No clipboard API on a plain-http classroom server: copy through a selected text area.
      const box = document.createElement("textarea");
      box.value = url;
      box.setAttribute("readonly", "");
      box.style.position = "fixed";
      box.style.opacity = "0";
      document.body.appendChild(box);
      box.select();
      done = document.execCommand("copy");
      box.remove();
    }
    if (status) status.textContent = done ? data.copied : data.failed;
  };
}
