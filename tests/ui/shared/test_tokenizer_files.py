"""Loading a tokenizer from uploaded files: errors name the file, never the temporary directory."""

from __future__ import annotations

import doctest
import tempfile

import pytest

from mergescope_ui.shared.inputs import tokenizer_files
from mergescope_ui.shared.inputs.tokenizer_files import load_uploaded, safe_name


def test_doctests():
    result = doctest.testmod(tokenizer_files)
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize(
    "files, words",
    [
        ([("vocab.json", b"{")], ["vocab.json", "JSON"]),
        ([("tokenizer.json", b'{"model": 3}')], ["tokenizer.json"]),
        ([("x.tiktoken", b"not base64 !!\n")], ["x.tiktoken"]),
        ([("a.json", b"{}"), ("a.json", b"{}")], ["share a name"]),
        ([], ["no file uploaded"]),
    ],
)
def test_upload_errors_name_the_file_not_the_temp_dir(files, words):
    with pytest.raises(ValueError) as info:
        load_uploaded(files)
    message = str(info.value)
    assert all(w in message for w in words), message
    assert tempfile.gettempdir() not in message and "mergescope-load" not in message


def test_safe_name_refuses_paths_out():
    assert safe_name("../../x/merges.txt") == "merges.txt"
    for bad in ["..", "../", ".hidden", ""]:
        with pytest.raises(ValueError, match="not a usable file name"):
            safe_name(bad)
