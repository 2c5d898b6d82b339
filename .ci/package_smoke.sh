#!/usr/bin/env bash
# Packaging gate: build the wheel and the sdist, install each in a new, clean venv, and run a smoke test there
# (the README's first example, the JSON export, the py.typed marker, and the example data). Dependencies at the
# pins of .ci/constraints.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python -m build --outdir "$work/dist" . >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; exit 1; }
wheel=$(ls "$work"/dist/*.whl)
sdist=$(ls "$work"/dist/*.tar.gz)
for artifact in "$wheel" "$sdist"; do
    venv="$work/venv-$(basename "$artifact")"
    python -m venv "$venv"
    # the pinned versions of CI's test environment (.ci/constraints.txt), so the gate resolves the same every day
    "$venv/bin/python" -m pip install -q -c .ci/constraints.txt "$artifact" 2>&1 | grep -v -i "warning" || true
    (
        cd "$work"  # not the checkout: the installed package must be the one imported
        "$venv/bin/python" - <<'PY'
import importlib.resources, json, subprocess, sys
import symbolic_ti
assert "site-packages" in symbolic_ti.__file__, symbolic_ti.__file__
assert importlib.resources.files("symbolic_ti").joinpath("py.typed").is_file(), "py.typed missing"
r = symbolic_ti.derive(9, ["6>4"], parameters={"alpha": "1/10"}, ridge="1/10")
assert str(r.f(6, 4)) == "5509/7850", r.f(6, 4)
exe = sys.prefix + "/bin/symbolic-ti"
out = subprocess.run([exe, "derive", "--items", "9", "--exception", "6>4", "--set", "alpha=0.1", "--ridge", "0.1"],
                     capture_output=True, text=True, check=True).stdout
assert "exception margin f(6, 4) = 5509/7850" in out, out
js = json.loads(subprocess.run([exe, "derive", "-n", "4", "--set", "alpha=0", "--ridge", "1", "--format", "json"],
                               capture_output=True, text=True, check=True).stdout)
assert js["meta"]["symbolic_ti_version"] == symbolic_ti.__version__
# the example data ship in the package, with their provenance, and load from outside the checkout
from symbolic_ti.behaviour.data import load_behaviour
lm = symbolic_ti.example_data("lm_pair_summary_n9")
assert "site-packages" in str(lm) and lm.stat().st_size == 626168, lm
assert lm.with_name("README.md").is_file(), "symbolic_ti/datasets/README.md missing"
d = load_behaviour(lm, symbolic_ti.Task(9, ["6>4"]), filters=["setting=full", "hier=exc_mid_n9", "phase=post"])
assert (len(d.trials), d.rows_selected) == (72, 864), (len(d.trials), d.rows_selected)
print("smoke test passed:", symbolic_ti.__version__)
PY
    )
done
echo "package gate: wheel and sdist install and pass the smoke test"
