"""BuildRequest: the one options object the command line makes and every pipeline step reads."""

import argparse
import dataclasses
from pathlib import Path

import pytest

from printshop.pipeline.request import BuildRequest, Flip, Incomplete, Options, Target


def test_the_profiles_keyword_names_the_targets_shops_cutters_or_image_sets():
    assert BuildRequest.of(target="shop", profiles=["eu-3mm"]).shops == ("eu-3mm",)
    assert BuildRequest.of(target="cut", profiles=["cricut"]).cutters == ("cricut",)
    assert BuildRequest.of(target="preview", profiles=["web"]).image_sets == ("web",)
    assert BuildRequest.of(target="cut", profiles=["cricut"]).chosen() == ["cricut"]
    assert BuildRequest.of(target="pnp", profiles=["eu-3mm"]).chosen() is None


def test_a_request_is_frozen_and_its_modes_are_enums_equal_to_their_strings():
    request = BuildRequest.of(Path("data"), Path("out"), flip="short-edge", back_offset=[1, 2])
    with pytest.raises(dataclasses.FrozenInstanceError):
        request.force = True  # type: ignore[misc]
    assert request.options == Options(Flip.SHORT_EDGE, (1, 2))
    assert request.target is Target.PNP and request.target == "pnp"
    assert Incomplete("shown") is Incomplete.SHOWN and Incomplete.SHOWN != Target.PREVIEW


def test_drafts_are_print_and_play_only_in_the_settings_that_key_a_build():
    assert BuildRequest.of(draft=True).settings()["draft"] is True
    assert BuildRequest.of(draft=True, target="tts").settings()["draft"] is False


def test_the_command_line_makes_the_request_of_its_flags():
    args = argparse.Namespace(
        data=Path("data"),
        out=Path("out"),
        templates=None,
        lang=None,
        paper=None,
        variant=None,
        target="cut",
        profile=None,
        cutter=["cricut"],
        flip="short-edge",
        back_offset=(0.0, 0.0),
        gutterfold=False,
        low_ink=True,
        draft=False,
        shard=None,
        jobs=None,
        force=False,
    )
    request = BuildRequest.from_arguments(args, ["comrade"])
    assert request.target is Target.CUT and request.cutters == ("cricut",) and request.shops is None
    assert request.games == ("comrade",) and request.options.low_ink
    assert request.options.flip is Flip.SHORT_EDGE
    assert request.settings()["profiles"] == ["cricut"]


def test_serve_s_flags_make_a_print_and_play_request():
    """serve has no --out, --paper, --draft or build options: those keep their defaults."""
    args = argparse.Namespace(data=Path("data"), templates=None, lang=["fr"], variant=None)
    request = BuildRequest.from_arguments(args, None)
    assert request.out_dir is None and request.target is Target.PNP and request.options == Options()
    assert request.langs == ("fr",) and not request.draft
