// What Streamlit hands a components v2 component's `export default` function: FrontendRendererArgs of
// @streamlit/component-v2-lib (0.2.0, for Streamlit 1.67), copied here because that package pulls in
// apache-arrow for one type the app does not use. `parentElement` is an HTMLElement when the component
// is made with isolate_styles=False (every one here but tab_memory's, which does not touch it).

type FrontendState = Record<string, unknown>;

type FrontendRendererArgs<TState extends FrontendState = FrontendState, TData = unknown> = {
  data: TData;
  key: string;
  name: string;
  parentElement: HTMLElement | ShadowRoot;
  setStateValue: (name: keyof TState, value: TState[keyof TState]) => void;
  setTriggerValue: (name: keyof TState, value: TState[keyof TState]) => void;
};

type CleanupFunction = () => void;
