"""`admiralty web` as a real process: it prints the URL of the port it bound, serves the
pages over a real socket and stops on Ctrl-C; and its refusals, each one line."""

from __future__ import annotations

import socket
import subprocess
import sys

import httpx2
import pytest
from typer.testing import CliRunner
from web_process import served_url, start_web, stop_web

from admiralty.cli import app


def start(web_data, **kwargs) -> subprocess.Popen:
    return start_web(web_data.db, web_data.records, **kwargs)


def raw_get(url: str, path: str) -> str:
    """The status line of GET `path` sent byte for byte (an HTTP client would remove the
    dot segments of `/t/../..` before sending)."""
    host, port = url.removeprefix("http://").rstrip("/").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(
            f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode()
        )
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer.decode("utf-8", errors="replace")


def test_it_serves_on_the_port_it_prints_until_interrupted(web_data):
    token = "a-token-from-the-environment"
    process = start(web_data, env={"ADMIRALTY_TOKEN": token})
    try:
        url = served_url(process)
        page = httpx2.get(url, timeout=10)
        assert page.status_code == 200 and web_data.tournament in page.text
        assert "content-security-policy" in page.headers and "server" not in page.headers
        signed = httpx2.post(f"{url}signin", data={"token": token}, timeout=10)
        assert signed.status_code == 303 and "admiralty_session" in signed.cookies
        traversal = raw_get(url, "/t/../../../etc/passwd")
        assert traversal.startswith("HTTP/1.1 404") and "root:" not in traversal
        assert raw_get(url, f"/t/{web_data.tournament}/m/../../../../etc/passwd").startswith(
            "HTTP/1.1 404"
        )
    finally:
        code, stderr = stop_web(process)
    assert code == 0, stderr
    assert token not in stderr  # given, it is not printed


def test_without_a_token_it_makes_one_and_prints_it_once(web_data):
    process = start(web_data)
    try:
        url = served_url(process)
        line = process.stderr.readline()
        assert line.startswith("sign in with this token to see seats' views: "), line
        token = line.split()[-1]
        signed = httpx2.post(f"{url}signin", data={"token": token}, timeout=10)
        assert signed.status_code == 303
    finally:
        _, stderr = stop_web(process)
    assert token not in stderr


def web(*args: str):
    return CliRunner().invoke(app, ["web", *args])


def test_a_file_that_is_not_a_database_is_one_line(tmp_path):
    db = tmp_path / "t.db"
    db.write_text("these are notes, not a database\n" * 50)
    result = web("--db", str(db), "--token", "t")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines()[-1] == f"error: {db} is not an SQLite database"


def test_a_taken_port_is_one_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = web("--db", str(tmp_path / "t.db"), "--port", str(port))
    assert result.exit_code == 1
    taken_line = f"error: cannot listen on 127.0.0.1:{port}: Address already in use"
    assert result.stderr.strip() == taken_line


def test_without_the_web_packages_it_says_how_to_install_them(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if not installed
    monkeypatch.delitem(sys.modules, "admiralty.web.app", raising=False)  # imported anew
    result = web("--db", str(tmp_path / "t.db"))
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        "error: the web app needs its packages: pip install 'admiralty[web]'"
    )


@pytest.mark.parametrize("host", ["999.1.1.1", "no-such-host.invalid"])
def test_an_unknown_host_is_one_line(tmp_path, host):
    result = web("--db", str(tmp_path / "t.db"), "--host", host)
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: --host {host}: no such host or address"


def test_an_arena_file_that_is_no_arena_is_one_line(tmp_path, web_data):
    result = web("--db", str(tmp_path / "t.db"), "--arena", str(web_data.db))
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: {web_data.db} is not an arena database"


def test_arena_records_that_are_a_file_are_one_line(tmp_path, arena_data):
    notes = tmp_path / "notes.txt"
    notes.write_text("not a folder\n")
    result = web("--arena", str(arena_data.db), "--arena-records", str(notes))
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: --arena-records {notes}: not a directory"
