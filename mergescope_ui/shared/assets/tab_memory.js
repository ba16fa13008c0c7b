// A value this browser tab keeps across reloads in its sessionStorage (a Streamlit components v2
// component; tab_memory.py): null asks what the tab kept, "" forgets it, any other value keeps it.
/** tab_memory.py's data: the value's name, the value to keep ("" forgets it; null asks what the tab kept), and
 * what this session knows already.
 * @param {FrontendRendererArgs<{value: string}, {name: string, value: string | null, known: unknown}>} component */
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
