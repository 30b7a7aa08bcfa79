"""``rummylab serve``'s stored files: the report pages under /report, the runs under /runs with
their seals checked (a damaged or edited run, spec.json included, is shown as damaged with the
reason and never described), and no request path leaving its folder (``..``, absolute paths,
symlinks out, encoded separators, backslashes, NUL: 404, never 500, never the file)."""

import json
import os
import re
import shutil
from html import unescape
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from analysis import integrity, store
from analysis.cli import main
from analysis.serve.app import Config, create_app
from analysis.serve.files import safe_path
from sim.runner import CHUNK

N = CHUNK + 5          # two chunks, two rows files
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
SECRET = "SECRET-OUTSIDE-THE-FOLDER"


def client(runs: Path, reports: Path) -> TestClient:
    """The app without its lifespan (no worker pool: these routes need none)."""
    return TestClient(create_app(Config(runs=runs, reports=reports, workers=1)))


@pytest.fixture
def site(tmp_path):
    """(client, runs folder, reports folder) with a report of two pages and a PNG, and a secret
    file beside both folders."""
    runs, reports = tmp_path / "runs", tmp_path / "reports"
    runs.mkdir()
    (reports / "sub").mkdir(parents=True)
    (reports / "index.html").write_text("<h1>the landing page</h1>")
    (reports / "gin.html").write_text("<h1>Gin</h1>")
    (reports / "sub" / "page.html").write_text("<h1>deeper</h1>")
    (reports / "gin-knock.png").write_bytes(PNG)
    (reports / ".rummylab.lock").write_text("lock")
    (reports / "notes.py").write_text("print('no')")
    (tmp_path / "secret.txt").write_text(SECRET)
    return client(runs, reports), runs, reports


# ----------------------------------------------------------------------------------------
# /report

def test_the_report_pages_and_their_pngs_are_served(site):
    c, _, _ = site
    r = c.get("/report/")
    assert r.status_code == 200 and "the landing page" in r.text and r.headers["content-type"].startswith("text/html")
    assert c.get("/report/gin.html").text == "<h1>Gin</h1>"
    assert c.get("/report/sub/page.html").text == "<h1>deeper</h1>"
    png = c.get("/report/gin-knock.png")
    assert png.status_code == 200 and png.content == PNG and png.headers["content-type"] == "image/png"
    assert png.headers["x-content-type-options"] == "nosniff"
    r = c.get("/report", follow_redirects=False)
    assert r.status_code == 307 and r.headers["location"] == "/report/"


@pytest.mark.parametrize("path", ["nothing.html", "gin.png", "sub", "sub/", ".rummylab.lock", "notes.py",
                                  "GIN.HTML"])
def test_what_is_not_a_report_file_is_404(site, path):
    r = site[0].get(f"/report/{path}")
    assert r.status_code == 404 and "Not here" in r.text


def test_only_regular_files_are_served(site):
    c, _, reports = site
    os.mkfifo(reports / "pipe.html")          # reading it would block the server
    assert c.get("/report/pipe.html").status_code == 404


def test_no_report_yet_says_how_to_make_one(tmp_path):
    (tmp_path / "reports").mkdir()
    for reports in (tmp_path / "reports", tmp_path / "absent"):
        r = client(tmp_path / "runs", reports).get("/report/")
        assert r.status_code == 200 and "No report yet" in r.text
        assert "make demo" in r.text and f"rummylab report RUN_DIR ... --html {reports.as_posix()}/index.html" in r.text


# ----------------------------------------------------------------------------------------
# path safety

ATTACKS = [   # {t}: a target beside the folder; {abs}: its absolute path; {link}: a link inside to outside
    "..%2f{t}", "%2e%2e%2f{t}", "%2E%2E%2F{t}", "%2e%2e/{t}", "sub/..%2f..%2f{t}", "..%5c{t}", "%5c..%5c{t}",
    "..\\{t}", "%252e%252e%252f{t}", "{abs}", "{abs_enc}", "%2f{abs_enc}", "outside/{t}", "{link}", "passwd.txt", "~%2f{t}",
    "C:%5c{t}", "..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd", "index.html%00", "index.html%00.png",
    "%00", "{t}%00", "a" * 5000,
]


@pytest.fixture
def attacked(site, stored, tmp_path):
    """The site with, beside its folders, a secret file and a sound run (``leak``), and inside
    them links out: ``outside`` to the folder above, ``passwd.txt`` to /etc/passwd, ``linked``
    to the run beside, ``secret-link.txt`` to the secret."""
    c, runs, reports = site
    shutil.copytree(stored / "tonk", tmp_path / "leak")
    (runs / "sub").mkdir()
    for root in (runs, reports):
        (root / "passwd.txt").symlink_to("/etc/passwd")
        (root / "outside").symlink_to(tmp_path)
        (root / "linked").symlink_to(tmp_path / "leak")
    (reports / "secret-link.txt").symlink_to(tmp_path / "secret.txt")
    return c, tmp_path


def _attack(template: str, prefix: str, beside: Path) -> str:
    t = "secret.txt" if prefix == "/report/" else "leak"
    target = (beside / t).as_posix()
    link = "secret-link.txt" if prefix == "/report/" else "linked"
    return prefix + template.format(t=t, abs=target, abs_enc=target.replace("/", "%2f"), link=link)


def _leaks(text: str) -> bool:
    text = _text(text)
    return SECRET in text or "root:" in text or "variant tonk" in text or "Seals:" in text


@pytest.mark.parametrize("prefix", ["/report/", "/runs/"])
@pytest.mark.parametrize("attack", ATTACKS, ids=lambda a: a[:40])
def test_no_request_path_leaves_its_folder(attacked, prefix, attack):
    c, beside = attacked
    r = c.get(_attack(attack, prefix, beside))
    assert r.status_code == 404 and not _leaks(r.text)


def test_the_targets_are_there(attacked):
    """The attacks above aim at something: the same things inside the folders are served."""
    c, beside = attacked
    runs = Path(c.app.state.config.runs)
    shutil.copytree(beside / "leak", runs / "leak")
    (Path(c.app.state.config.reports) / "secret.txt").write_text(SECRET)
    (Path(c.app.state.config.reports) / "passwd-inside.txt").write_bytes(Path("/etc/passwd").read_bytes())
    assert SECRET in c.get("/report/secret.txt").text
    assert _leaks(c.get("/runs/leak").text) and _leaks(c.get("/report/passwd-inside.txt").text)


@pytest.fixture
def server(attacked):
    """The app on a loopback port (uvicorn, without its lifespan): requests go as sent, decoded
    once by the server as in use."""
    import socket
    import threading
    import time

    import uvicorn
    c, beside = attacked
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    srv = uvicorn.Server(uvicorn.Config(c.app, lifespan="off", log_level="warning"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(500):
        if srv.started:
            break
        time.sleep(0.01)
    yield sock.getsockname()[1], beside
    srv.should_exit = True
    thread.join(10)


@pytest.mark.parametrize("prefix", ["/report/", "/runs/"])
def test_raw_requests_to_a_real_server_stay_inside(server, prefix):
    import http.client
    port, beside = server
    raw = ["../{t}", "sub/../../{t}", "..%2f{t}", "%2e%2e%2f{t}", "%2e%2e/{t}", "..\\{t}", "..%5c{t}", "{abs}",
           "{abs_enc}", "{link}", "outside/{t}", "{t}%00", "%252e%252e%252f{t}"]
    for template in raw:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", _attack(template, prefix, beside))
        r = conn.getresponse()
        body = r.read().decode("utf-8", "replace")
        conn.close()
        assert r.status in (400, 404) and not _leaks(body), (template, r.status)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/report/gin.html")
    assert conn.getresponse().read() == b"<h1>Gin</h1>"


@pytest.mark.parametrize("requested", [
    "../secret.txt", "sub/../../secret.txt", "/etc/passwd", "//etc/passwd", "..\\secret.txt",
    "%2e%2e%2fsecret.txt", "index.html\x00.png", "passwd.txt", "outside/secret.txt", "outside",
    "~/secret.txt", ".rummylab.lock", "nothing.html", "a" * 5000, "sub/../../reports/index.html"])
def test_safe_path_refuses(site, requested):
    _, _, reports = site
    (reports / "passwd.txt").symlink_to("/etc/passwd")
    (reports / "outside").symlink_to(reports.parent)
    assert safe_path(reports, requested) is None


def test_safe_path_finds_what_is_inside(site):
    _, _, reports = site
    (reports / "inner-link.html").symlink_to(reports / "gin.html")
    root = reports.resolve()
    assert safe_path(reports, "gin.html") == root / "gin.html"
    assert safe_path(reports, "sub/page.html") == root / "sub" / "page.html"
    assert safe_path(reports, "./sub//page.html") == root / "sub" / "page.html"
    assert safe_path(reports, "inner-link.html") == root / "gin.html"
    assert safe_path(reports, "") == root


# ----------------------------------------------------------------------------------------
# /runs and the seals

@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """A sound simulate run (two chunks) and a sound knock sweep (a study with a stage run)."""
    base = tmp_path_factory.mktemp("stored")
    sim = ["simulate", "--variant", "tonk", "--hands", str(N), "--seed", "4", "--jobs", "1", "--no-progress"]
    assert main([*sim, "--out", str(base / "tonk")]) == 0
    assert main(["knock-sweep", "--variant", "tonk", "--thresholds", "5..10:5", "--hands", "300", "--games", "0",
                 "--seed", "3", "--jobs", "1", "--no-progress", "--out", str(base / "sweep")]) == 0
    return base


def listing(c: TestClient) -> dict[str, tuple[str, str]]:
    r = c.get("/runs")
    assert r.status_code == 200
    return {m["run"]: (m["state"], m["body"]) for m in re.finditer(
        r'<tr class="run [^"]*" data-run="(?P<run>[^"]*)" data-state="(?P<state>[^"]*)">(?P<body>.*?)</tr>',
        r.text, re.S)}


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def _rows(d):
    return sorted((d / "rows").glob("*.parquet"))


def _chunks(d):
    return sorted((d / "chunks").glob("*.json"))


def _json(path, change):
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc, indent=2))


def _respec(d):
    """spec.json changed consistently (its key recomputed): only meta.json can tell."""
    def change(doc):
        doc["seed"] = 5
        doc["key"] = store.key_of({k: v for k, v in doc.items() if k != "key"})
    _json(d / "spec.json", change)


def _flip(path):
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    st = path.stat()
    path.write_bytes(bytes(data))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))      # the same size and time: only the content tells


def _link_out(path):
    path.unlink()
    path.symlink_to("/etc/passwd")


def _reseal_without_n(d):
    meta = json.loads((d / "meta.json").read_text())
    (d / "meta.json").write_text(json.dumps(integrity.seal({"key": meta["key"], "chunks_sha256": "0" * 64})))


EDITS = {   # name: (edit of a copy of the sound run, what the reason says)
    "spec-seed": (lambda d: _json(d / "spec.json", lambda s: s.update(seed=5)),
                  "spec.json: its content does not match its key"),
    "spec-rekeyed": (_respec, "meta.json: its key differs from spec.json's"),
    "spec-gone": (lambda d: (d / "spec.json").unlink(), "spec.json: it is missing"),
    "spec-not-json": (lambda d: (d / "spec.json").write_text("{"), "spec.json: it is not valid JSON"),
    "meta-seed": (lambda d: _json(d / "meta.json", lambda m: m.update(seed=5)),
                  "meta.json: its content differs from the hash recorded"),
    "meta-total": (lambda d: _json(d / "meta.json", lambda m: m["total"].update(n=1)),
                   "meta.json: its content differs from the hash recorded"),
    "meta-unsealed": (lambda d: _json(d / "meta.json", lambda m: m.pop("sha256")),
                      "meta.json: its content hash is missing"),
    "meta-truncated": (lambda d: (d / "meta.json").write_bytes((d / "meta.json").read_bytes()[:100]),
                       "meta.json: it is not valid JSON"),
    "meta-malformed": (_reseal_without_n, "cannot be read as a rummylab results folder (KeyError"),
    "rows-changed": (lambda d: _flip(_rows(d)[1]), "its content differs from the hash recorded"),
    "rows-gone": (lambda d: _rows(d)[0].unlink(), ".parquet: it is missing"),
    "rows-to-passwd": (lambda d: _link_out(_rows(d)[0]), "links outside the runs folder"),
    "chunk-changed": (lambda d: _json(_chunks(d)[1], lambda c: c["part"].update(n=1)),
                      "its content differs from the hash recorded"),
    "chunk-gone": (lambda d: _chunks(d)[1].unlink(), ".json: it is missing"),
    "chunk-lists-outside": (lambda d: _json(_chunks(d)[0], lambda c: c.update(integrity.seal(
        {**{k: v for k, v in c.items() if k != "sha256"}, "files": {"../../secret.txt": "0"}}))),
        "it lists a file outside its run"),
}


def test_a_sound_run_is_shown_as_sound_with_what_it_is(stored, tmp_path):
    runs = tmp_path / "runs"
    shutil.copytree(stored / "tonk", runs / "demo" / "tonk")
    c = client(runs, tmp_path / "reports")
    rows = listing(c)
    assert list(rows) == ["demo/tonk"]
    state, body = rows["demo/tonk"]
    text = _text(body)
    assert state == "sound" and "damaged" not in text
    for fact in ("simulate run", "variant tonk", "players 2", f"hands {N:,}", "seed 4", "strategies simple, simple"):
        assert fact in text
    page = c.get("/runs/demo/tonk")
    assert page.status_code == 200 and "variant tonk" in _text(page.text) and "seat 0" in page.text


@pytest.mark.parametrize("edit", EDITS, ids=str)
def test_an_edited_or_damaged_run_is_shown_as_damaged(stored, tmp_path, edit):
    change, reason = EDITS[edit]
    runs = tmp_path / "runs"
    shutil.copytree(stored / "tonk", runs / "sound")
    shutil.copytree(stored / "tonk", runs / "edited")
    (tmp_path / "secret.txt").write_text(SECRET)
    c = client(runs, tmp_path / "reports")
    assert listing(c)["edited"][0] == "sound"        # checked once: then edited under the running app
    change(runs / "edited")
    rows = listing(c)
    assert rows["sound"][0] == "sound"
    state, body = rows["edited"]
    text = _text(body)
    assert state == "damaged" and reason in text, text
    assert "variant tonk" not in text and "seed 4" not in text and "/runs/edited" not in body
    page = c.get("/runs/edited")
    assert page.status_code == 200 and "damaged" in page.text and reason in _text(page.text)
    assert "variant tonk" not in _text(page.text) and "seat 0" not in page.text


def test_a_run_without_meta_is_incomplete_not_sound(stored, tmp_path):
    runs = tmp_path / "runs"
    shutil.copytree(stored / "tonk", runs / "half")
    (runs / "half" / "meta.json").unlink()
    state, body = listing(client(runs, tmp_path / "reports"))["half"]
    assert state == "incomplete" and "did not finish (no meta.json)" in _text(body) and "variant tonk" not in body


STUDY_EDITS = {
    "study-doc": (lambda d: _json(d / "sweep.json", lambda s: s.update(best_overall=99)), "sweep.json: its content differs"),
    "stage-meta": (lambda d: _json(d / "overall" / "meta.json", lambda m: m.update(n=1)), "overall/meta.json: its content differs"),
    "stage-spec": (lambda d: _json(d / "overall" / "spec.json", lambda s: s.update(seed=1)),
                   "overall/spec.json: its content does not match its key"),
    "stage-chunk-gone": (lambda d: [p.unlink() for p in _chunks(d / "overall")], "it is missing"),
}


def test_a_sound_study_is_shown_with_its_stages(stored, tmp_path):
    runs = tmp_path / "runs"
    shutil.copytree(stored / "sweep", runs / "sweep")
    c = client(runs, tmp_path / "reports")
    state, body = listing(c)["sweep"]
    text = _text(body)
    assert state == "sound" and "knock sweep" in text and "variant tonk" in text and "seed 3" in text
    assert "thresholds 5, 10" in text and "1 stage run checked" in text
    assert c.get("/runs/sweep").status_code == 200
    stage = c.get("/runs/sweep/overall")                       # a stage alone is a run too
    assert stage.status_code == 200 and "A stage of a study" in stage.text and "sound" in stage.text


@pytest.mark.parametrize("edit", STUDY_EDITS, ids=str)
def test_an_edited_study_is_shown_as_damaged(stored, tmp_path, edit):
    change, reason = STUDY_EDITS[edit]
    runs = tmp_path / "runs"
    shutil.copytree(stored / "sweep", runs / "sweep")
    change(runs / "sweep")
    state, body = listing(client(runs, tmp_path / "reports"))["sweep"]
    assert state == "damaged" and reason in _text(body) and "thresholds" not in body


def test_a_run_linked_from_outside_is_refused(stored, tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()
    shutil.copytree(stored / "tonk", tmp_path / "elsewhere")
    (runs / "linked").symlink_to(tmp_path / "elsewhere")
    c = client(runs, tmp_path / "reports")
    state, body = listing(c)["linked"]
    assert state == "damaged" and "links outside the runs folder" in body and "variant tonk" not in body
    assert c.get("/runs/linked").status_code == 404


def test_no_runs_folder_or_no_runs_says_how_to_store_one(tmp_path):
    for runs in (tmp_path / "absent", tmp_path):
        r = client(runs, tmp_path / "reports").get("/runs")
        assert r.status_code == 200 and "--out" in r.text and "make demo" in r.text and "<tr class=\"run" not in r.text


@pytest.mark.parametrize("path", ["nothing", "sound/rows", "sound/spec.json", ""])
def test_what_is_not_a_run_is_404(stored, tmp_path, path):
    runs = tmp_path / "runs"
    shutil.copytree(stored / "tonk", runs / "sound")
    r = client(runs, tmp_path / "reports").get(f"/runs/{path}")
    assert r.status_code == (200 if path == "" else 404)


def test_a_relative_runs_folder_lists_runs_by_their_path_in_it(stored, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(stored / "tonk", tmp_path / "runs" / "demo" / "tonk")
    c = client(Path("runs"), Path("reports"))
    assert listing(c)["demo/tonk"][0] == "sound"
    assert c.get("/runs/demo/tonk").status_code == 200 and "variant tonk" in _text(c.get("/runs/demo/tonk").text)


def test_a_symlink_loop_in_a_run_is_damaged_not_a_500(stored, tmp_path):
    runs = tmp_path / "runs"
    shutil.copytree(stored / "tonk", runs / "looped")
    (runs / "looped" / "rows" / "a").symlink_to(runs / "looped" / "rows" / "b")
    (runs / "looped" / "rows" / "b").symlink_to(runs / "looped" / "rows" / "a")
    c = client(runs, tmp_path / "reports")
    assert listing(c)["looped"][0] == "damaged"
    assert c.get("/runs/looped").status_code == 200


def test_a_run_stored_before_seals_is_unchecked_not_sound(stored, tmp_path):
    runs = tmp_path / "runs"
    shutil.copytree(stored / "tonk", runs / "old")
    _json(runs / "old" / "meta.json", lambda m: [m.pop(k) for k in ("sha256", "chunks_sha256")])
    state, body = listing(client(runs, tmp_path / "reports"))["old"]
    assert state == "unchecked" and "carries no seal" in _text(body) and "variant tonk" not in _text(body)
