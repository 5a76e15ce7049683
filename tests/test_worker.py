"""`iospec worker` as a real process on a loopback port: answers of spec/stream.md § 10 (STR-HTTP) on good and bad
input, the configuration at GET /stream/info, concurrency without lost or doubled frames, the shutdown (waiting
acts and bodies still arriving get 503, exit 0), the example uploader, and one line when the HTTP extra is missing.
Every test stops what it started; `no_leftovers` proves it."""

from __future__ import annotations

import concurrent.futures
import json
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from http_processes import REPO, Running, children, running, worker
from seq_io.reference.validation import contract

pytestmark = pytest.mark.realclock

JSON = {"content-type": "application/json"}
WAIT_S = 0.5
"""The act's wait of the shared worker (`--wait-s`)."""
LOAD_RETRIES = 3
POLICY = REPO / "examples" / "policy.json"


@pytest.fixture(autouse=True, scope="module")
def no_leftovers() -> Iterator[None]:
    """Set up before, and so torn down after, every other fixture of the module."""
    yield
    assert children() == [], "a test left a process behind"


@pytest.fixture(autouse=True)
def nothing_new_left(request: pytest.FixtureRequest) -> Iterator[None]:
    before = set(children())
    yield
    assert set(children()) <= before, "this test left a process behind"


@pytest.fixture(scope="module")
def every_one() -> Iterator[Running]:
    """A worker for {"every": 1} with a short wait and MAX_STREAM_FRAMES 8, shared by the bad-input tests."""
    policy = Path(__file__).parent / "policies" / "every-one.json"
    with running(
        worker("--policy", str(policy), "--wait-s", str(WAIT_S), "--max-stream-frames", "8", "--max-body-bytes", "4096")
    ) as process:
        yield process
        assert process.stop() == 0


def post(
    url: str,
    path: str,
    body: Any = None,
    *,
    content: bytes | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 10.0,
) -> httpx.Response:
    data = content if content is not None else json.dumps(body).encode()
    return httpx.post(
        url + path, content=data, headers=JSON if headers is None else headers, timeout=timeout, trust_env=False
    )


def assert_stream_error(answer: httpx.Response, status: int, reason: str) -> dict[str, Any]:
    """The answer is a StreamError body with this status and reason, and carries Seq-Accept-Formats."""
    assert answer.status_code == status, answer.text
    assert answer.headers["seq-accept-formats"] == "x-seq-observe/1"
    body = answer.json()
    assert contract().validate_value("StreamError", body).valid, body
    assert body["error"]["details"]["reason"] == reason
    return dict(body["error"]["details"])


def test_observe_and_act_answer_as_the_spec_says(every_one: Running) -> None:
    url = every_one.url
    ok = post(
        url, "/observe", {"episode_id": "good-1", "frames": [{"seq": 0, "inputs": "a"}, {"seq": 2, "inputs": "c"}]}
    )
    assert ok.status_code == 200 and ok.json() == {"through": 0}
    assert ok.headers["seq-accept-formats"] == "x-seq-observe/1"
    handed = post(url, "/act", {"episode_id": "good-1", "seq": 1, "inputs": "b"})
    assert handed.status_code == 200 and handed.json() == {"outputs": {"observations": ["a", "b"], "steps": [0, 1]}}
    assert post(url, "/observe", {"episode_id": "good-1"}).json() == {"through": 2}
    again = post(url, "/act", {"episode_id": "good-1", "seq": 1, "inputs": "b"})
    assert assert_stream_error(again, 409, "act_not_after_previous") == {
        "reason": "act_not_after_previous",
        "last_act": 1,
    }
    no_seq = post(url, "/act", {"episode_id": "good-1", "inputs": "x"})
    assert_stream_error(no_seq, 400, "seq_required")
    over = post(url, "/observe", {"episode_id": "good-2", "frames": [{"seq": n, "inputs": n} for n in range(9)]})
    assert assert_stream_error(over, 413, "frames_over_limit")["limit"] == "MAX_STREAM_FRAMES"


def _act_completed_by_a_post(url: str, episode: str) -> tuple[httpx.Response, float]:
    """An act that waits, then the post of its frames: (the act's answer, seconds from sending the act until the
    post was answered, which bounds when the post reached the worker)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        begun = time.monotonic()
        waiting = pool.submit(post, url, "/act", {"episode_id": episode, "seq": 2, "inputs": "own"})
        time.sleep(0.1)
        frames = [{"seq": 0, "inputs": "a"}, {"seq": 1, "inputs": "b"}]
        assert post(url, "/observe", {"episode_id": episode, "frames": frames}).json() == {"through": 1}
        posted_within = time.monotonic() - begun
        return waiting.result(10), posted_within


def test_a_waiting_act_is_answered_when_its_frames_come_and_fails_after_the_real_wait(every_one: Running) -> None:
    url = every_one.url
    for attempt in range(LOAD_RETRIES):  # a stall may let the 0.5 s wait pass before the post: measured, retried
        answer, posted_within = _act_completed_by_a_post(url, f"wait-1-{attempt}")
        if posted_within < WAIT_S:
            assert answer.json() == {"outputs": {"observations": ["a", "b", "own"], "steps": [0, 1, 2]}}
            break
    else:
        pytest.fail(f"the machine kept every post {WAIT_S} s or more behind its act, {LOAD_RETRIES} times")
    begun = time.monotonic()
    failed = post(url, "/act", {"episode_id": "wait-2", "seq": 3, "inputs": "own"})
    took = time.monotonic() - begun
    assert assert_stream_error(failed, 409, "frames_missing")["missing"] == [0, 1, 2]
    assert took >= WAIT_S, f"the act failed after {took:.3f} s, before its wait of {WAIT_S} s"


@pytest.mark.parametrize(
    ("content", "headers", "rule"),
    [
        (b'{"episode_id": "bad", "frames": [}', None, "wire.json-syntax"),
        (b'{"episode_id": "bad", "episode_id": "twice"}', None, "wire.duplicate-key"),
        (b"\xff\xfe", None, "wire.json-syntax"),
        (b'{"episode_id": "bad"}', {"content-type": "text/plain"}, "http.content-type"),
        (b'{"episode_id": "bad"}', {"content-type": "application/json; charset=latin-1"}, "http.content-type"),
        (b'{"episode_id": "bad"}', {}, "http.content-type"),
        (json.dumps({"episode_id": "x" * 257}).encode(), None, "maxLength"),
        (b'{"episode_id": "bad", "frames": [{"seq": -1, "inputs": 0}]}', None, "minimum"),
        (b"[" + b" " * 5000 + b"]", None, "http.body-too-large"),
    ],
)
def test_bad_bodies_are_invalid_body_and_disturb_no_other_episode(
    every_one: Running, content: bytes, headers: dict[str, str] | None, rule: str
) -> None:
    url = every_one.url
    assert post(url, "/observe", {"episode_id": "bystander", "frames": [{"seq": 0, "inputs": 1}]}).json() == {
        "through": 0
    }
    on_the_wire = rule.startswith(("wire.", "http."))  # refused before the body's type matters: both paths
    for path in ("/observe", "/act") if on_the_wire else ("/observe",):
        answer = post(url, path, content=content, headers=headers)
        issues = assert_stream_error(answer, 400, "invalid_body")["issues"]
        assert rule in [issue["rule"] for issue in issues], issues
    assert post(url, "/observe", {"episode_id": "bystander"}).json() == {"through": 0}


def test_a_chunked_body_over_the_limit_is_refused_while_it_arrives(every_one: Running) -> None:
    sent = {"bytes": 0}

    def chunks() -> Iterator[bytes]:
        yield b'{"episode_id": "chunked", "frames": ['
        for _ in range(10_000):  # far beyond the 4096-byte limit; the worker stops reading long before the end
            sent["bytes"] += 64
            yield b'{"seq": 1, "inputs": "' + b"x" * 44 + b'"}, '

    try:
        answer = httpx.post(every_one.url + "/observe", content=chunks(), headers=JSON, timeout=10, trust_env=False)
    except httpx.HTTPError:
        return  # the worker answered and closed while we were still sending: also a refusal in bounded memory
    issues = assert_stream_error(answer, 400, "invalid_body")["issues"]
    assert issues[0]["rule"] == "http.body-too-large"


def test_unknown_paths_and_methods_get_a_shaped_body(every_one: Running) -> None:
    url = every_one.url
    missing = httpx.post(url + "/observer", json={}, trust_env=False)
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert missing.headers["seq-accept-formats"] == "x-seq-observe/1"
    wrong = httpx.get(url + "/act", trust_env=False)
    assert wrong.status_code == 405 and wrong.json()["error"]["details"]["reason"] == "method_not_allowed"
    assert "POST" in wrong.headers["allow"]
    hidden = httpx.post(url + "/stream/keepers", json={"declaration": None}, trust_env=False)
    assert hidden.status_code == 404  # test keepers only with --testing


def test_stream_info_states_the_configuration(every_one: Running) -> None:
    info = httpx.get(every_one.url + "/stream/info", trust_env=False).json()
    assert info["declaration"] == {"every": 1} and info["rate"] is None
    assert info["wait_s"] == 0.5 and info["stream_wait_s"] == 10.0 and info["time_scale"] == 0.05
    assert info["limits"]["MAX_STREAM_FRAMES"] == 8 and info["formats"] == ["x-seq-observe/1"]
    assert info["testing"] is False


def test_request_log_lines_are_json_with_episode_numbers_status_and_duration(every_one: Running) -> None:
    post(
        every_one.url,
        "/observe",
        {"episode_id": "logged", "frames": [{"seq": 3, "inputs": 0}, {"seq": 5, "inputs": 0}], "skipped": [4]},
    )
    give_up = time.monotonic() + 10  # the log is read from the worker's stderr by a thread: poll, bounded
    while not (logged := [entry for entry in every_one.log_lines() if entry.get("episode") == "logged"]):
        assert time.monotonic() < give_up, "no log line for the request within 10 s"
        time.sleep(0.05)
    line = logged[-1]
    assert line["seq"] == [3, 5] and line["status"] == 200 and line["path"] == "/observe" and line["skipped"] == 1
    assert isinstance(line["ms"], float)


@pytest.fixture(scope="module")
def patient() -> Iterator[Running]:
    """A worker for {"every": 1} whose acts wait 30 s: long enough that no stall of a loaded machine can pass a
    deadline while many clients upload, and never waited out when the frames come."""
    policy = Path(__file__).parent / "policies" / "every-one.json"
    with running(worker("--policy", str(policy), "--wait-s", "30", "--quiet")) as process:
        yield process
        assert process.stop() == 0


def test_many_episodes_and_concurrent_posts_to_one_lose_and_double_nothing(patient: Running) -> None:
    url = patient.url
    client = httpx.Client(trust_env=False, timeout=20, limits=httpx.Limits(max_connections=64))

    def upload(episode: str, numbers: list[int]) -> None:
        for number in numbers:  # every number sent twice, from different threads, with different inputs
            client.post(
                url + "/observe",
                headers=JSON,
                content=json.dumps(
                    {"episode_id": episode, "frames": [{"seq": number, "inputs": f"{episode}:{number}"}]}
                ),
            )

    try:
        with concurrent.futures.ThreadPoolExecutor(16) as pool:
            acts = {
                f"many-{n}": pool.submit(
                    client.post,
                    url + "/act",
                    headers=JSON,
                    content=json.dumps({"episode_id": f"many-{n}", "seq": 6, "inputs": "own"}),
                )
                for n in range(12)
            }
            jobs = [
                pool.submit(upload, f"many-{n}", order)
                for n in range(12)
                for order in ([0, 2, 4, 1, 3, 5], [5, 4, 3, 2, 1, 0])
            ]
            for job in jobs:
                job.result(30)
            for episode, act in acts.items():
                handed = act.result(30).json()["outputs"]
                assert handed["steps"] == [0, 1, 2, 3, 4, 5, 6]
                assert handed["observations"] == [f"{episode}:{n}" for n in range(6)] + ["own"]
                assert client.post(
                    url + "/observe", headers=JSON, content=json.dumps({"episode_id": episode})
                ).json() == {"through": 6}
    finally:
        client.close()


def _slow_post(url: str, done: dict[str, Any]) -> None:
    """A post whose body arrives in two halves, the second after the shutdown began."""
    host, port = url.removeprefix("http://").split(":")
    body = json.dumps({"episode_id": "late", "frames": [{"seq": 0, "inputs": 0}]}).encode()
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(
            b"POST /observe HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body[:10]
        )
        done["headers_sent"].set()
        done["go"].wait(10)
        sock.sendall(body[10:])
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.endswith(b"}"):
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
        done["answer"] = answer.decode()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_shutdown_answers_waiting_acts_and_late_bodies_then_exits_0(sig: int) -> None:
    with running(worker("--policy", str(POLICY), "--wait-s", "30", "--quiet")) as process:
        url = process.url
        state: dict[str, Any] = {"headers_sent": threading.Event(), "go": threading.Event()}
        slow = threading.Thread(target=_slow_post, args=(url, state))
        slow.start()
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            act = pool.submit(post, url, "/act", {"episode_id": "e", "seq": 5, "inputs": {"cam": 5}}, timeout=20)
            assert state["headers_sent"].wait(10)
            time.sleep(0.3)
            assert not act.done()
            begun = time.monotonic()
            process.process.send_signal(sig)
            answer = act.result(10)
            time.sleep(0.1)
            state["go"].set()
            slow.join(10)
            code = process.stop(timeout=10)
        assert_stream_error_shape(answer, "shutting_down")
        assert time.monotonic() - begun < 20, "the waiting act held the shutdown (its wait is 30 s)"
        assert state["answer"].startswith("HTTP/1.1 503"), state["answer"]
        assert '"shutting_down"' in state["answer"] and "seq-accept-formats: x-seq-observe/1" in state["answer"]
        assert code == 0


def assert_stream_error_shape(answer: httpx.Response, reason: str) -> None:
    assert answer.status_code == 503
    assert answer.json()["error"]["details"]["reason"] == reason
    assert answer.headers["seq-accept-formats"] == "x-seq-observe/1"


def test_the_example_uploader_sees_the_envelopes_it_expects() -> None:
    with running(worker("--policy", str(POLICY), "--wait-s", "0.5", "--quiet")) as process:
        done = subprocess.run(
            [
                sys.executable,
                str(REPO / "examples" / "uploader.py"),
                "--worker",
                process.url,
                "--policy",
                str(POLICY),
                "--acts",
                "3,6,9,10,15,40",
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert process.stop() == 0
    assert done.returncode == 0, done.stdout + done.stderr
    assert "6 acts matched, 0 did not" in done.stdout
    assert '"steps": [11, 13, 15]' in done.stdout  # imu fed every 2 back from 15, cam's window [-2, 0]


@pytest.mark.parametrize("argv", [["worker"], ["probe", "--worker", "http://127.0.0.1:9"]])
def test_without_the_http_extra_it_is_one_line(argv: list[str]) -> None:
    blocked = "import sys; sys.modules['h11'] = sys.modules['httpx'] = None; "
    run = f"from seq_io.cli import main; sys.exit(main({argv!r}))"
    done = subprocess.run(
        [sys.executable, "-c", blocked + run], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "pip install 'sequences-io-spec[http]'" in done.stderr


@pytest.mark.parametrize(
    ("policy", "words"),
    [
        ('{"observations": {"every": 1}}', "$: "),
        ('{"handler_ref": "x", "observations": {"every": 1, "unit": "seconds"}}', "schedule.rate-required"),
        ("{", "wire.json-syntax"),
    ],
)
def test_a_bad_policy_is_a_message_and_exit_2(tmp_path: Path, policy: str, words: str) -> None:
    path = tmp_path / "policy.json"
    path.write_text(policy)
    done = subprocess.run(worker("--policy", str(path)), capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_a_port_in_use_is_a_message_and_exit_2() -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        done = subprocess.run(worker("--port", str(port)), capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "cannot listen on 127.0.0.1" in done.stderr
