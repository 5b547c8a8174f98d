"""A missing optional dependency ends in one line naming the pip extra, not a traceback: the
RL faces, the OpenSpiel face, the command line and the examples (each import made to fail as
it would without the package: ``sys.modules[name] = None``)."""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path
from typing import Any

import pytest

from racedeck import rl
from racedeck.cli import app as cli_app
from racedeck.extras import EXTRA_OF, MissingExtra, install_hint, needs

ROOT = Path(__file__).resolve().parents[1]


def _without(monkeypatch: pytest.MonkeyPatch, missing: str, *reloaded: str) -> None:
    """Make ``import missing`` fail, and forget ``reloaded`` (racedeck modules that import it)
    so that they are imported anew; both are put back after the test."""
    monkeypatch.setitem(sys.modules, missing, None)
    for name in reloaded:
        monkeypatch.delitem(sys.modules, name, raising=False)


def test_every_extra_named_is_one_of_the_packages_extras() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = text[text.index("[project.optional-dependencies]") : text.index("[project.scripts]")]
    extras = set(re.findall(r"^(\w+) = \[", section, flags=re.MULTILINE))
    assert {e for e in EXTRA_OF.values() if e is not None} <= extras
    assert install_hint("torch") == "pip install 'racedeck[examples]'"


@pytest.mark.parametrize(
    ("make", "missing", "module", "face"),
    [
        (rl.env, "pettingzoo", "racedeck.rl.aec", "racedeck.rl.env (PettingZoo's AEC face)"),
        (
            rl.parallel_env,
            "pettingzoo",
            "racedeck.rl.parallel",
            "racedeck.rl.parallel_env (PettingZoo's parallel face)",
        ),
        (rl.gym_env, "gymnasium", "racedeck.rl.single", "racedeck.rl.gym_env (the Gymnasium face)"),
    ],
    ids=["aec", "parallel", "gymnasium"],
)
def test_a_face_without_its_library_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, make: Any, missing: str, module: str, face: str
) -> None:
    _without(monkeypatch, missing, module)
    message = re.escape(f"{face}: {missing} is not installed; pip install 'racedeck[rl]'")
    with pytest.raises(MissingExtra, match=message) as raised:
        make("setback")
    assert raised.value.name == missing
    assert raised.value.__cause__ is None and raised.value.__suppress_context__


def test_the_openspiel_face_without_pyspiel_names_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _without(monkeypatch, "pyspiel", "racedeck.rl.openspiel")
    with pytest.raises(MissingExtra, match=r"pyspiel is not installed; pip install 'racedeck\[rl"):
        import racedeck.rl.openspiel  # noqa: F401


def test_other_import_errors_pass_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    _without(monkeypatch, "no_such_module_of_anyone")
    with pytest.raises(ModuleNotFoundError) as raised, needs("this test"):
        import no_such_module_of_anyone  # noqa: F401
    assert type(raised.value) is ModuleNotFoundError


def test_the_command_line_prints_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def app() -> None:
        raise ModuleNotFoundError("No module named 'numba'", name="numba")

    monkeypatch.setattr(cli_app, "app", app)
    monkeypatch.setattr(sys, "argv", ["racedeck", "train", "setback"])
    with pytest.raises(SystemExit) as exited:
        cli_app.main()
    assert exited.value.code == 1
    err = capsys.readouterr().err
    assert err == "error: racedeck train: numba is not installed; pip install 'racedeck[rl]'\n"


def test_the_training_example_without_pytorch_prints_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _without(monkeypatch, "torch")
    argv = ["train_setback.py", "--players", "2", "--eval-games", "1"]
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit) as exited:
        runpy.run_path(str(ROOT / "examples" / "train_setback.py"), run_name="__main__")
    assert str(exited.value.code) == (
        "error: examples/train_setback.py's training (sb3-contrib, PyTorch): torch is not "
        "installed; pip install 'racedeck[examples]'"
    )


def test_an_image_without_pillow_says_to_reinstall(monkeypatch: pytest.MonkeyPatch) -> None:
    # Pillow comes with Matplotlib, a dependency of racedeck itself: only a broken
    # installation lacks it.
    from racedeck.rl import rendering

    rendering._fonts.cache_clear()  # the fonts are loaded once: load them anew
    _without(monkeypatch, "PIL")
    env = rl.env("setback", render_mode="rgb_array")
    env.reset(seed=1)
    message = (
        'render_mode="rgb_array": PIL is not installed; pip install --force-reinstall racedeck'
    )
    with pytest.raises(MissingExtra, match=re.escape(message)):
        env.render()
