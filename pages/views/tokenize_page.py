"""Tokenize: paste text, pick a tokenizer, see its tokens and bytes (sections: mergescope_ui.tokenize)."""

from mergescope_ui import tokenize

tokenize.header()  # the title, and what a shared link asked for
text = tokenize.text_input()  # example buttons and the text box
picked = tokenize.picker()  # which tokenizer, resolved (its notes, or why there is none)
shown = tokenize.token_view(picked, text)  # the counts and the coloured spans (None: no tokenizer)
if shown is None:
    tokenize.write_link(text, picked.spec, page=1)  # the URL still says what was asked for
else:
    tokenize.tabs(text, picked, shown)  # ids, byte ribbon, details, compare, files, share (and the link)
