"""The soak's side work (trainings and uploads beside the class) counts a failure and goes on."""
import time

from playground.bench import app_training, soak


def test_a_training_that_fails_to_start_is_an_error_and_the_side_work_goes_on(monkeypatch):
    """A loaded server may time out the new training's first request: that is one of the soak's
    errors, and later trainings and uploads still run (the thread used to die, its errors unread)."""
    class Refused:
        def __init__(self, url):
            raise TimeoutError("timed out")

    monkeypatch.setattr(app_training, "Training", Refused)
    monkeypatch.setattr(soak, "TRAINING_EVERY_S", 0.5)
    monkeypatch.setattr(soak, "UPLOAD_EVERY_S", 3600.0)
    side = soak.SideWork("http://127.0.0.1:9/")
    side.start()
    try:
        deadline = time.monotonic() + 30
        while len(side.errors) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert side.is_alive()
    finally:
        side.done.set()
        side.join(timeout=10)
    assert len(side.errors) >= 2 and side.errors[0] == "TimeoutError: timed out"
    assert side.trainings == 0


def test_a_soak_whose_first_page_fails_reports_that_failure(monkeypatch):
    """A server too loaded to give the teacher its page ends the soak with that error and a stopped
    server, not with an error about threads that never started."""
    stopped = []

    class Server:
        url = "http://127.0.0.1:9/"
        process = type("Process", (), {"pid": 1})()

        def stop(self):
            stopped.append(True)

    def page_times_out(url):
        raise TimeoutError("the teacher's page timed out")

    monkeypatch.setattr(soak, "AppProcess", Server)
    monkeypatch.setattr(soak, "teacher_opens", page_times_out)
    try:
        soak.run(quick=True)
    except TimeoutError as error:
        assert "teacher's page" in str(error)
    else:
        raise AssertionError("the soak went on without the teacher's page")
    assert stopped == [True]


def test_a_training_that_starts_is_counted(monkeypatch):
    """(SideWork is a thread: its helpers must not shadow threading.Thread's own attributes.)"""
    class Started:
        def __init__(self, url):
            pass

        def start(self):
            pass

        def stop(self):
            pass

    monkeypatch.setattr(app_training, "Training", Started)
    monkeypatch.setattr(soak, "UPLOAD_EVERY_S", 3600.0)
    side = soak.SideWork("http://127.0.0.1:9/")
    side.start()
    deadline = time.monotonic() + 30
    while side.trainings < 1 and time.monotonic() < deadline:
        time.sleep(0.1)
    side.done.set()
    side.join(timeout=10)
    assert side.trainings == 1 and side.errors == []
