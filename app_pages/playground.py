"""The playground: paste text, pick a tokenizer, see tokens, bytes, details, comparisons and files."""

from mergescope_ui import playground_page

playground_page.render()
