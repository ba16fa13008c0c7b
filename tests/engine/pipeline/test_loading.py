"""How pipeline files load: through ``load_tokenizer`` and the CLI, what still goes to the older readers
(today's ids stay), what is refused and how (one line naming the stage and what is supported), and what
normalization loses, said."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from bpe_core import cli
from bpe_core.formats import TokenizerFileError, load_tokenizer, save_tokenizer
from bpe_core.pipeline import PipelineTokenizer
from bpe_core.tokenizer import Tokenizer, WordPieceTokenizer
from bpe_core.tokenizer.piece_bpe import PieceBpeTokenizer

from .support import bert, llama2, sentencepiece_model


def run(*argv: str, stdin: bytes = b"") -> tuple[int, bytes, str]:
    out, err = io.BytesIO(), io.StringIO()
    code = cli.main(list(argv), stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("files")
    out = {"bert": d / "bert.json", "llama": d / "llama.json", "sp": d / "sp-bpe.model"}
    bert(lowercase=True).save(str(out["bert"]))
    llama2(legacy=True).save(str(out["llama"]))
    out["sp"].write_bytes(sentencepiece_model("bpe", vocab_size=800, byte_fallback=True)[0])
    return out


@pytest.mark.parametrize("name", ["bert", "llama", "sp"])
def test_the_cli_encodes_and_decodes_them(files: dict[str, Path], name: str) -> None:
    text = "Hello 自然语言处理 wörld 😀"
    code, out, err = run("encode", "--tokenizer", str(files[name]), "--text", text)
    assert code == 0, err
    ids = json.loads(out)
    assert ids == load_tokenizer(files[name], any_scheme=True).encode(text)
    code, back, err = run("decode", "--tokenizer", str(files[name]), stdin=out)
    assert code == 0, err
    expected = "hello 自 然 语 言 处 理 world [UNK]" if name == "bert" else text
    assert back.decode("utf-8") == expected


def test_the_cli_frames_with_the_post_processor(files: dict[str, Path]) -> None:
    from tokenizers import Tokenizer as HF

    code, out, _ = run(
        "encode", "--tokenizer", str(files["llama"]), "--with-special-tokens", "--text", "Hi there"
    )
    assert code == 0 and json.loads(out) == HF.from_file(str(files["llama"])).encode("Hi there").ids
    code, _, err = run("encode", "--tokenizer", str(files["sp"]), "--with-special-tokens", "--text", "Hi")
    assert code == 1 and err.count("\n") == 1 and "needs a tokenizer.json with a post-processor" in err


def test_a_decoder_in_blocks_gives_the_whole_text(files: dict[str, Path]) -> None:
    tok = load_tokenizer(files["llama"], any_scheme=True)
    assert isinstance(tok, PipelineTokenizer)
    ids = tok.encode("a whole 自然 text")
    decoder = tok.incremental_decoder()
    parts = [decoder.decode(ids[:3]), decoder.decode(ids[3:], final=True)]
    assert "".join(parts) == tok.decode(ids) == "a whole 自然 text"


def test_files_the_older_readers_read_still_go_to_them(tmp_path: Path) -> None:
    """Today's ids stay: a WordPiece file without a normalizer is still a WordPieceTokenizer, byte-level
    BPE still a Tokenizer."""
    from tokenizers import Tokenizer as HF
    from tokenizers import decoders, models, pre_tokenizers, trainers

    wp = HF(models.WordPiece(unk_token="[UNK]"))
    wp.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    wp.train_from_iterator(
        ["hugs and pugs"] * 5, trainers.WordPieceTrainer(vocab_size=60, special_tokens=["[UNK]"])
    )
    wp.save(str(tmp_path / "wp.json"))
    assert isinstance(load_tokenizer(tmp_path / "wp.json", any_scheme=True), WordPieceTokenizer)
    bl = HF(models.BPE())
    bl.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bl.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=300, show_progress=False, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    bl.train_from_iterator(["hugs and pugs"] * 5, trainer)
    bl.save(str(tmp_path / "bl.json"))
    assert isinstance(load_tokenizer(tmp_path / "bl.json", any_scheme=True), Tokenizer)


def test_only_byte_level_callers_get_the_old_refusal(files: dict[str, Path]) -> None:
    with pytest.raises(TokenizerFileError):
        load_tokenizer(files["llama"])  # any_scheme=False: byte-level BPE only


def _with(path: Path, tmp_path: Path, **changes: Any) -> Path:
    data = json.loads(path.read_text(encoding="utf-8"))
    data.update(changes)
    out = tmp_path / "changed.json"
    out.write_text(json.dumps(data), encoding="utf-8")
    return out


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"normalizer": {"type": "Uppercase"}},
            "key 'normalizer': the normalizer type 'Uppercase' is not supported",
        ),
        (
            {"pre_tokenizer": {"type": "UnicodeScripts"}},
            "the pre-tokenizer type 'UnicodeScripts' is not supported",
        ),
        (
            {"decoder": {"type": "Sequence", "decoders": [{"type": "Fuse"}, {"type": "CTC"}]}},
            "key 'decoder.decoders[1]': the decoder type 'CTC' is not supported",
        ),
        ({"post_processor": {"type": "BertProcessing", "sep": ["[SEP]"], "cls": ["[CLS]", 2]}}, "must be"),
    ],
)
def test_an_unsupported_stage_is_one_line_naming_it(
    files: dict[str, Path], tmp_path: Path, changes: dict[str, Any], message: str
) -> None:
    path = _with(files["bert"], tmp_path, **changes)
    with pytest.raises(TokenizerFileError, match=message.replace("[", r"\[").replace("]", r"\]")) as info:
        load_tokenizer(path, any_scheme=True)
    assert ("\n" not in str(info.value) and "supported" in str(info.value)) or "must be" in str(info.value)


def test_a_bpe_dropout_is_refused(files: dict[str, Path], tmp_path: Path) -> None:
    data = json.loads(files["llama"].read_text(encoding="utf-8"))
    data["model"]["dropout"] = 0.1
    path = tmp_path / "dropout.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(TokenizerFileError, match="dropout"):
        load_tokenizer(path, any_scheme=True)


def test_what_normalization_loses_is_said(files: dict[str, Path]) -> None:
    tok = load_tokenizer(files["bert"], any_scheme=True)
    loss = tok.lost("Ünïcode")  # Ü and ï lose their accents (and case): two changed
    assert not loss.round_trip and loss.decoded == "unicode" and loss.changed == 2
    assert tok.lost("hello").changed == 0
    llama = load_tokenizer(files["llama"], any_scheme=True)
    assert llama.lost("a  b\tc 自然").round_trip  # spaces written as ▁ and bytes come back


def test_they_cannot_be_saved_yet_and_say_so(files: dict[str, Path], tmp_path: Path) -> None:
    for name in ("llama", "sp"):
        tok = load_tokenizer(files[name], any_scheme=True)
        assert isinstance(tok, PipelineTokenizer | PieceBpeTokenizer)
        with pytest.raises(ValueError, match="keep the file it was read from"):
            save_tokenizer(tok, tmp_path / name)
        assert not (tmp_path / name).exists()


def test_a_pattern_for_a_staged_file_is_refused(files: dict[str, Path]) -> None:
    from bpe_core.formats import OwnStagesError

    with pytest.raises(OwnStagesError, match="records its own: leave them out"):
        load_tokenizer(files["llama"], pattern="gpt4", any_scheme=True)
