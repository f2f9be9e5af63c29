"""Project set-up checks: the README's two commands, CI, and the Binder configuration."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```bash\n(.*?)\n```", text, flags=re.S)


def test_readme_gives_a_play_command_and_a_test_command():
    blocks = readme_commands()
    assert any(
        "jupyter lab" in b and "start_here.ipynb" in b and "pip install" in b for b in blocks
    )
    assert any("scripts/test-all.sh" in b for b in blocks)


def test_ci_runs_the_readme_test_command_after_installing_chromium():
    ci = (ROOT / ".ci" / "run").read_text()
    assert "apt-get update" in ci and "apt-get install" in ci and "chromium" in ci
    assert ci.index("apt-get update") < ci.index("apt-get install")
    assert "bash scripts/test-all.sh" in ci
    script = (ROOT / "scripts" / "test-all.sh").read_text()
    assert "pytest tests notebooks --nbval-lax" in script


def test_binder_config_installs_the_package_in_a_fresh_environment(tmp_path):
    post = ROOT / "binder" / "postBuild"
    assert os.access(post, os.X_OK), "binder/postBuild must be executable"
    assert (ROOT / "binder" / "runtime.txt").read_text().strip().startswith("python-3.")
    env_dir = tmp_path / "env"
    # a new virtual environment; the system site-packages only spare downloading the
    # dependencies again, the package itself is installed by postBuild into the new env
    venv.create(env_dir, with_pip=True, system_site_packages=True)
    env = {**os.environ, "PATH": f"{env_dir / 'bin'}:{os.environ['PATH']}", "PIP_NO_INPUT": "1"}
    env.pop("PYTHONPATH", None)
    # postBuild writes the kernel culling into the Jupyter config: a folder of this test's
    env["JUPYTER_CONFIG_DIR"] = str(tmp_path / "jupyter-config")
    run = subprocess.run(
        ["bash", str(post)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert (tmp_path / "jupyter-config" / "jupyter_server_config.json").exists()
    check = subprocess.run(
        [
            str(env_dir / "bin" / "python"),
            "-c",
            "import sys, moneynb; g = moneynb.new_game('money_moves', players=['A', 'B'], seed=1);"
            "print(sys.prefix, len(g.legal_actions()))",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert check.returncode == 0, check.stderr
    assert check.stdout.split()[0] == str(env_dir) and check.stdout.split()[1] == "1"
    # the editable install put plotly's widget module where Binder's Jupyter serves it
    # (issue 41: installed by pip, never written by a kernel)
    from moneynb.ui import static

    data, version = static.plotly_source()
    served = env_dir / static.INSTALL_DIR / f"{static.bundle_key(data, version)}.js"
    assert served.is_file() and served.read_bytes() == data, sorted(
        str(p) for p in (env_dir / "share").rglob("*.js")
    )


def test_engine_imports_no_front_end_library():
    code = (
        "import sys, moneynb\n"
        "for name in moneynb.available_games(): moneynb.game_class(name)\n"
        "import moneynb.bots\n"
        "bad = [m for m in ('ipywidgets', 'plotly', 'IPython', 'anywidget') if m in sys.modules]\n"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_code_is_formatted_and_lint_clean():
    """ruff (the project's formatter and linter) finds nothing to change."""
    for args in (["check", "."], ["format", "--check", "."]):
        run = subprocess.run(
            [sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True
        )
        assert run.returncode == 0, (
            f"ruff {' '.join(args)}:\n{run.stdout[-3000:]}{run.stderr[-1000:]}"
        )


def test_notebook_dollar_amounts_render_as_text_in_lab_and_voila():
    """A dollar amount in Markdown is written ``<span>\\$250,000</span>``: JupyterLab needs the
    backslash (else "$250,000 ... $200,000" is typeset as maths), and Voila's converter drops
    it, so the span keeps MathJax from pairing two amounts there (checked in both in a browser,
    2026-11-30)."""
    import json
    import re

    bare = []
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "markdown":
                src = "".join(cell["source"])
                bare += [
                    f"{path.name}: {m.group(0)}" for m in re.finditer(r"(?<!<span>)\\\$\d\S*", src)
                ]
    assert bare == [], bare
