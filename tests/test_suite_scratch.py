"""Where the suite's temporary folders go (conftest.scratch_in_memory): a memory-backed folder of
this user's own, only when nobody chose another and it is roomy and safe."""

from __future__ import annotations

import os
import tempfile
from types import SimpleNamespace

import pytest

import tests.conftest as conftest


def config(basetemp=None, worker=False):
    made = SimpleNamespace(option=SimpleNamespace(basetemp=basetemp))
    if worker:
        made.workerinput = {}
    return made


@pytest.fixture
def shm(tmp_path, monkeypatch):
    for name in ("TMPDIR", "PYTEST_DEBUG_TEMPROOT", "PRINTSHOP_TEST_TMP"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(conftest, "SCRATCH_ROOM", 1)
    folder = tmp_path / "shm"
    folder.mkdir()
    return folder


def test_a_roomy_folder_gets_a_private_folder_of_this_user(shm):
    folder = conftest.scratch_in_memory(config(), shm)
    assert folder == shm / f"printshop-tests-{os.getuid()}" and folder.is_dir()
    assert folder.stat().st_mode & 0o777 == 0o700
    assert conftest.scratch_in_memory(config(), shm) == folder  # the next session takes the same


@pytest.mark.parametrize("chosen", ["TMPDIR", "PYTEST_DEBUG_TEMPROOT"])
def test_a_folder_the_user_chose_is_kept(shm, monkeypatch, chosen):
    monkeypatch.setenv(chosen, str(shm))
    assert conftest.scratch_in_memory(config(), shm) is None


def test_basetemp_a_worker_or_disk_asked_for_is_kept(shm, monkeypatch):
    assert conftest.scratch_in_memory(config(basetemp="somewhere"), shm) is None
    assert (
        conftest.scratch_in_memory(config(worker=True), shm) is None
    )  # workers inherit the controller's
    monkeypatch.setenv("PRINTSHOP_TEST_TMP", "disk")
    assert conftest.scratch_in_memory(config(), shm) is None


def test_a_small_or_missing_folder_is_not_used(shm, monkeypatch):
    monkeypatch.setattr(conftest, "SCRATCH_ROOM", 1 << 62)
    assert conftest.scratch_in_memory(config(), shm) is None
    monkeypatch.setattr(conftest, "SCRATCH_ROOM", 1)
    assert conftest.scratch_in_memory(config(), shm / "absent") is None


def test_a_link_or_a_folder_others_can_reach_is_not_used(shm, tmp_path):
    target, folder = tmp_path / "elsewhere", shm / f"printshop-tests-{os.getuid()}"
    target.mkdir(mode=0o700)
    folder.symlink_to(target)
    assert conftest.scratch_in_memory(config(), shm) is None
    folder.unlink()
    folder.mkdir()
    folder.chmod(0o777)  # mkdir's mode passes through the umask
    assert conftest.scratch_in_memory(config(), shm) is None


@pytest.mark.skipif(os.getuid() != 0, reason="giving a folder to another user needs root")
def test_another_users_folder_of_the_same_name_is_not_used(shm):
    folder = shm / f"printshop-tests-{os.getuid()}"
    folder.mkdir(mode=0o700)
    os.chown(folder, 65534, 65534)
    assert conftest.scratch_in_memory(config(), shm) is None


@pytest.mark.parametrize("own_prefix", [False, True])
def test_bytecode_kept_in_the_memory_folder_when_not_written_beside_the_sources(
    tmp_path, monkeypatch, own_prefix
):
    monkeypatch.setattr(conftest, "scratch_in_memory", lambda config: tmp_path)
    monkeypatch.setattr(tempfile, "tempdir", tempfile.tempdir)
    monkeypatch.setenv("TMPDIR", os.environ.get("TMPDIR", "/tmp"))  # restored after the test
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    if own_prefix:
        monkeypatch.setenv("PYTHONPYCACHEPREFIX", "/somewhere/of/theirs")
    else:
        monkeypatch.delenv("PYTHONPYCACHEPREFIX", raising=False)
    conftest.pytest_configure(config())
    assert os.environ["TMPDIR"] == str(tmp_path)
    if own_prefix:  # the user's choice stands
        assert os.environ["PYTHONDONTWRITEBYTECODE"] == "1"
        assert os.environ["PYTHONPYCACHEPREFIX"] == "/somewhere/of/theirs"
    else:
        assert "PYTHONDONTWRITEBYTECODE" not in os.environ
        assert os.environ["PYTHONPYCACHEPREFIX"] == str(tmp_path / "bytecode")
