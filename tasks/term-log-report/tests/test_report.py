import pathlib
import subprocess

TESTS = pathlib.Path("/nab/tests")
WS = pathlib.Path("/workspace")
SCRIPT = WS / "report" / "make_report.sh"


def test_summary_for_the_workspace_logs():
    got = (WS / "report" / "summary.csv").read_text()
    assert got == (TESTS / "expected_summary.csv").read_text()


def test_script_regenerates_the_summary(tmp_path):
    out = tmp_path / "summary.csv"
    subprocess.run(["bash", str(SCRIPT), str(WS / "logs"), str(out)], check=True, cwd=tmp_path, timeout=30)
    assert out.read_text() == (TESTS / "expected_summary.csv").read_text()


def test_script_works_on_other_logs(tmp_path):
    # Logs the agent never saw, with a file that is not a log in the folder.
    out = tmp_path / "alt.csv"
    subprocess.run(["bash", str(SCRIPT), str(TESTS / "alt_logs"), str(out)], check=True, cwd=tmp_path, timeout=30)
    assert out.read_text() == (TESTS / "expected_alt_summary.csv").read_text()
