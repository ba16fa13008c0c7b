// A value this browser tab keeps across reloads in its sessionStorage (a Streamlit components v2
// component; tab_memory.py): null asks what the tab kept, "" forgets it, any other value keeps it.
// A lasting value is the browser's (localStorage: every tab of it), made here the first time it is asked for.
/** tab_memory.py's data: the value's name, the value to keep ("" forgets it; null asks what the tab kept),
 * what this session knows already, and whether the value is the whole browser's (made here if missing).
 * @param {FrontendRendererArgs<{value: string}, {name: string, value: string | null, known: unknown,
 *   lasting?: boolean}>} component */
export default function (component) {
  const { data, setStateValue } = component;
  const name = "mergescope:" + data.name;
  try {
    const storage = data.lasting ? window.localStorage : window.sessionStorage;
    if (data.value === null) {
      let kept = storage.getItem(name);
      if (!kept && data.lasting) {
        const bytes = window.crypto.getRandomValues(new Uint8Array(16));
        kept = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
        storage.setItem(name, kept);
      }
      if (kept && kept !== data.known) setStateValue("value", kept);
    } else if (data.value === "") {
      storage.removeItem(name);
    } else {
      storage.setItem(name, data.value);
    }
  } catch (error) {
    // No storage (a private window may refuse it): a reload then loses the value, nothing else.
  }
}
