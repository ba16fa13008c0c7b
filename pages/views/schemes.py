"""Compare schemes: the four schemes trained on one text, side by side (sections: mergescope_ui.schemes)."""

from mergescope_ui import schemes

messages = schemes.header()  # the title, what the page shows, the place for every message
inputs = schemes.sidebar(messages)  # the text, held-out share, chart sizes, vocab size, sentence
if inputs is not None and (found := schemes.comparison(inputs, messages)) is not None:
    result, cached = found
    schemes.cuts(inputs, result, cached=cached)  # the sentence as each scheme cuts it
    schemes.tabs(inputs, result)  # the table, what is lost, the chart across vocab sizes
