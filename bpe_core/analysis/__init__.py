"""Analysis, the fifth stage: what a trained tokenizer does to texts, and why the fast trainer matters.

- :mod:`.compression_curve`: token counts after every number of merges, from one run;
- :mod:`.metrics`: compression, OOV and round-trip rates, the table of vocab sizes;
- :mod:`.scripts`: which writing system each character belongs to;
- :mod:`.data_split`: a held-out part of a corpus;
- :mod:`.speed_lesson`: the textbook and the fast trainer timed side by side;
- :mod:`.side_by_side`: two tokenizers compared (cuts, shared tokens, compression), for "What if?".
"""
