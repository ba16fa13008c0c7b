"""Compare schemes: the four schemes trained on one text, side by side (sections: mergescope_ui.schemes)."""

from mergescope_ui import schemes

messages = schemes.header()  # the title, what the page shows, the place for every message
inputs = schemes.sidebar(messages)  # the text, held-out share, chart sizes, vocab size, sentence
if inputs is not None and (run := schemes.comparison(inputs, messages)) is not None:
    with run.area:  # the results' place (empty while a new comparison computes)
        schemes.cuts(inputs, run.result, cached=run.cached)  # the sentence as each scheme cuts it
        schemes.tabs(inputs, run.result)  # the table, what is lost, the chart across vocab sizes
