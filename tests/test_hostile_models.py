"""Hostile and corrupt model files: a declared network that does not fit its tensors, weights
that are not finite and zip bombs are refused with a CheckpointError before anything large is
allocated or inflated, and the UCI engine answers at once and goes on working."""
from __future__ import annotations

import struct
import time
import zipfile

import pytest
import torch

from engine.core.checkpoint import CheckpointError, load_network, metadata, read_checkpoint
from engine.core.evaluators import UniformEvaluator
from engine.protocols.uci import UCIEngine
from games import get_game
from tests.conftest import tiny_model_file

#: far above what a refusal costs (milliseconds), far below what building the declared network would
QUICK_SECONDS = 10.0


@pytest.fixture()
def model(tmp_path):
    return tiny_model_file(tmp_path, "tictactoe")


def rewritten(path, out, change):
    """``path``'s payload, changed by ``change(payload)``, saved to ``out`` as torch.save would."""
    payload = torch.load(path, weights_only=True)
    change(payload)
    torch.save(payload, out)
    return out


def refused(path, game_id="tictactoe") -> str:
    start = time.monotonic()
    with pytest.raises(CheckpointError) as info:
        load_network(path, get_game(game_id))
    assert time.monotonic() - start < QUICK_SECONDS
    message = str(info.value)
    assert str(path) in message and "\x1b" not in message
    return message


@pytest.mark.parametrize("field, value", [("blocks", 10 ** 9), ("channels", 10 ** 9), ("value_hidden", 10 ** 12),
                                          ("blocks", 2), ("channels", 16), ("blocks", 10 ** 40)])
def test_a_declared_network_that_does_not_fit_the_tensors_is_refused_before_it_is_built(model, tmp_path, field,
                                                                                        value):
    bad = rewritten(model, tmp_path / "bad.pt", lambda p: p["net"].__setitem__(field, value))
    message = refused(bad)
    assert "refused" in message or "do not fit" in message


@pytest.mark.parametrize("value", ["4", 2.5, True, -1, None, [1]])
def test_a_network_description_of_the_wrong_type_is_refused(model, tmp_path, value):
    bad = rewritten(model, tmp_path / "bad.pt", lambda p: p["net"].__setitem__("blocks", value))
    refused(bad)


def test_a_network_description_that_is_not_a_dict_is_refused(model, tmp_path):
    refused(rewritten(model, tmp_path / "bad.pt", lambda p: p.__setitem__("net", "blocks=4")))


@pytest.mark.parametrize("change", ["wrong shape", "missing", "extra", "not a tensor", "empty"])
def test_tensors_that_do_not_fit_the_declared_network_are_refused(model, tmp_path, change):
    def edit(p):
        sd = p["state_dict"]
        name = next(k for k in sd if k.endswith("conv1.weight"))
        if change == "wrong shape":
            sd[name] = torch.zeros(3, 3)
        elif change == "missing":
            del sd[name]
        elif change == "extra":
            sd["tower.9.conv1.weight"] = torch.zeros(8, 8, 3, 3)
        elif change == "not a tensor":
            sd[name] = [1.0, 2.0]
        else:
            p["state_dict"] = {}
    refused(rewritten(model, tmp_path / "bad.pt", edit))


def test_a_tensor_that_repeats_a_few_stored_numbers_is_refused(model, tmp_path):
    """A view with stride 0 describes 10^12 numbers from one stored value: its shape must not
    let the declared network grow (channels = 10^6 here would be terabytes)."""
    def edit(p):
        big = 10 ** 6
        p["net"]["channels"] = big
        p["state_dict"]["stem.0.weight"] = torch.zeros(1).as_strided((big, 4, 3, 3), (0, 0, 0, 0))
    message = refused(rewritten(model, tmp_path / "bad.pt", edit))
    assert "more numbers than the file stores" in message


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
@pytest.mark.parametrize("where", ["stem.0.weight", "stem.1.running_var", "value_fc.2.bias"])
def test_weights_that_are_not_finite_are_refused(model, tmp_path, value, where):
    def poison(p):
        p["state_dict"][where].view(-1)[0] = value
    bad = rewritten(model, tmp_path / "bad.pt", poison)
    message = refused(bad)
    assert where in message and ("NaN" in message or "infinite" in message)
    with pytest.raises(CheckpointError):
        metadata(bad)  # nothing that lists models offers it


def _with_member(model, out, name, write):
    """A copy of ``model`` with one more zip member, written by ``write(zipfile, name)``."""
    with zipfile.ZipFile(model) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            dst.writestr(info, src.read(info.filename))
        write(dst, name)
    return out


def test_a_zip_bomb_is_refused_without_inflating_it(model, tmp_path):
    def zeros_deflated(zf, name):  # 256 MB of zeros, streamed and deflated to about 250 KB
        info = zipfile.ZipInfo(name)
        info.compress_type = zipfile.ZIP_DEFLATED
        with zf.open(info, "w", force_zip64=True) as f:
            block = bytes(1 << 20)
            for _ in range(256):
                f.write(block)
    bomb = _with_member(model, tmp_path / "bomb.pt", "archive/data/bomb", zeros_deflated)
    assert bomb.stat().st_size < 2_000_000
    message = refused(bomb)
    assert "zip bomb" in message


def _forge_declared_size(path, member: str, size: int) -> None:
    """Make ``member``'s declared uncompressed size ``size`` in both of the zip's headers."""
    data = bytearray(path.read_bytes())
    name = member.encode()
    local = data.find(b"PK\x03\x04")
    while local >= 0:
        n = struct.unpack_from("<H", data, local + 26)[0]
        if data[local + 30:local + 30 + n] == name:
            struct.pack_into("<I", data, local + 22, size)
        local = data.find(b"PK\x03\x04", local + 4)
    central = data.find(b"PK\x01\x02")
    while central >= 0:
        n = struct.unpack_from("<H", data, central + 28)[0]
        if data[central + 46:central + 46 + n] == name:
            struct.pack_into("<I", data, central + 24, size)
        central = data.find(b"PK\x01\x02", central + 4)
    path.write_bytes(bytes(data))


def test_a_member_that_declares_4_gib_is_refused_in_a_moment(model, tmp_path):
    def small(zf, name):
        zf.writestr(zipfile.ZipInfo(name), b"\0" * 1000, compress_type=zipfile.ZIP_DEFLATED)
    bomb = _with_member(model, tmp_path / "bomb.pt", "archive/data/bomb", small)
    _forge_declared_size(bomb, "archive/data/bomb", 0xFFFFFF00)
    start = time.monotonic()
    with pytest.raises(CheckpointError, match="zip bomb"):
        read_checkpoint(bomb)
    assert time.monotonic() - start < QUICK_SECONDS


def test_a_member_that_declares_less_than_it_inflates_to_is_corrupt(model, tmp_path):
    def big(zf, name):
        zf.writestr(zipfile.ZipInfo(name), b"\0" * (8 << 20), compress_type=zipfile.ZIP_DEFLATED)
    bomb = _with_member(model, tmp_path / "bomb.pt", "archive/data/bomb", big)
    _forge_declared_size(bomb, "archive/data/bomb", 100)
    with pytest.raises(CheckpointError):
        read_checkpoint(bomb)


def test_the_models_shipped_and_tiny_ones_still_load(model):
    net, meta = load_network(model, get_game("tictactoe"))
    assert meta["game_key"] == "tictactoe"


# --- the UCI engine with such files ---------------------------------------------------

def _hostile_files(model, tmp_path) -> list:
    files = [rewritten(model, tmp_path / "blocks.pt", lambda p: p["net"].__setitem__("blocks", 10 ** 9)),
             rewritten(model, tmp_path / "nan.pt",
                       lambda p: p["state_dict"]["stem.0.weight"].view(-1).__setitem__(0, float("nan")))]

    def zeros(zf, name):
        info = zipfile.ZipInfo(name)
        info.compress_type = zipfile.ZIP_DEFLATED
        with zf.open(info, "w", force_zip64=True) as f:
            for _ in range(64):
                f.write(bytes(1 << 20))
    files.append(_with_member(model, tmp_path / "bomb.pt", "archive/data/bomb", zeros))
    return files


def test_the_uci_engine_refuses_hostile_models_at_once_and_keeps_working(model, tmp_path):
    engine = UCIEngine(get_game("tictactoe"), evaluator=UniformEvaluator(), seed=0)
    for path in _hostile_files(model, tmp_path):
        start = time.monotonic()
        replies = engine.handle_line(f"setoption name Model value {path}")
        assert time.monotonic() - start < QUICK_SECONDS
        assert len(replies) == 1 and replies[0].startswith("info string error setoption:"), replies
        assert "internal" not in replies[0] and "nan" not in replies[0].split(":", 1)[0].lower()
        assert engine.handle_line("isready") == ["readyok"]
    replies = engine.handle_line("go nodes 20")
    assert replies[-1].startswith("bestmove ")
    assert engine.handle_line(f"setoption name Model value {model}")[0].startswith("info string using")


class _RunsCode:
    def __reduce__(self):
        return (print, ("this must never run",))


def test_a_refusal_is_a_plain_sentence_without_terminal_codes_or_advice_to_trust_the_file(model, tmp_path):
    payload = torch.load(model, weights_only=True)
    payload["extra"] = {"hook": _RunsCode()}
    evil = tmp_path / "evil.pt"
    torch.save(payload, evil)
    with pytest.raises(CheckpointError) as info:
        read_checkpoint(evil)
    message = str(info.value)
    assert "refused" in message and "\x1b" not in message and "\n" not in message
    assert "weights_only" not in message and "trust" not in message and "Unsupported global" in message
