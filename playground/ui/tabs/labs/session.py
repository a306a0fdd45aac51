"""A session's labs: one lab run at a time in a background worker (see playground.ui.session.worker), and
the results the session keeps to compare one lab with the next.

Nothing here draws: playground.ui.tabs.labs.views turns a LabSession into figures and text.
"""
from __future__ import annotations

from contextlib import closing
from typing import Iterator

from playground.labs import LABS, Lab, LabProgress, LabResult, LabRun, get_lab

from ...inputs.validation import check_choice, fail
from ...session.worker import STOP_WAIT_SECONDS, Put, Worker
from ...text.i18n import text

KEPT_RESULTS = 6              # lab results a session keeps to compare (the oldest goes first)


class LabSession:
    """One browser session's labs.

    run: the lab run in progress (None once it has ended); progress: its latest LabProgress.
    kept: run number (1, 2, ... in this session) -> the result of a finished or stopped run,
        oldest first.
    ticked: the run numbers of the kept results the page compares.
    """

    def __init__(self):
        self.lab: Lab | None = None
        self.run: LabRun | None = None
        self.progress: LabProgress | None = None
        self.kept: dict[int, LabResult] = {}
        self.ticked: list[int] = []
        self._runs = 0
        self._worker = Worker()
        self._closed = False

    @property
    def running(self) -> bool:
        return self._worker.running

    @property
    def stopping(self) -> bool:
        return self._worker.running and self._worker.stopping

    def runs_lab(self, lab_id: str) -> bool:
        """Whether the lab called ``lab_id`` is running in this session now."""
        return self.running and self.lab is not None and self.lab.id == lab_id

    def histories(self, lab_id: str, lang: str) -> dict[str, dict[str, list]]:
        """Variant name -> history of ``lab_id``: of its run in progress, else of its latest kept result."""
        run = self.run if self.runs_lab(lab_id) else None
        if run is not None:
            return run.runs(lang)
        result = self.latest(lab_id)
        return result.runs(lang) if result is not None else {}

    def launch(self, lab: Lab, lang: str) -> Iterator[list]:
        """Run ``lab`` in the worker; yields batches of LabProgress and, last, the LabResult.

        Refused with a gr.Error while another lab of this session runs. Closing the generator (or
        stop_and_wait()) ends the run once every variant has finished the round in progress; its result
        then compares the variants at that step.
        """
        return self._worker.launch(lambda put: self._work(put, lab), fail(lang, "err_lab_running"))

    def _work(self, put: Put, lab: Lab) -> None:
        self.lab, self.run, self.progress = lab, LabRun(lab), None
        try:
            with closing(self.run.run()) as progress:
                for item in progress:
                    self.progress = item
                    put(item)
                    if self._worker.stopping and _round_complete(self.run):
                        break
            if not self._closed:
                result = self.run.result()
                self._runs += 1
                self.kept = dict([*self.kept.items(), (self._runs, result)][-KEPT_RESULTS:])
                put(result)
        finally:
            self.run = None                      # the trainers are freed; the result keeps what they showed

    def stop_and_wait(self, timeout: float = STOP_WAIT_SECONDS) -> bool:
        """Ask the lab to end after its round; True once none runs (False if one still runs after ``timeout`` s)."""
        return self._worker.stop_and_wait(timeout)

    def latest(self, lab_id: str) -> LabResult | None:
        """The most recent kept result of ``lab_id``."""
        return next((result for result in reversed(self.kept.values()) if result.lab_id == lab_id), None)

    def forget(self) -> None:
        """Drop every kept result."""
        self.kept, self.ticked = {}, []

    def close(self) -> None:
        """The session is gone: stop its lab."""
        self._closed = True
        self._worker.stop()


def _round_complete(run: LabRun) -> bool:
    """Whether every variant still training has reached the same step (a round has ended), so a
    run stopped here compares the variants at one step."""
    return len({trainer.step for trainer in run.trainers.values() if trainer.failure is None}) <= 1


def check_lab(lab_id, lang: str) -> Lab:
    """The lab called ``lab_id``, or a gr.Error listing the labs."""
    return get_lab(check_choice(lab_id, tuple(LABS), lang, "lab"))


def check_kept(selected, session: LabSession, lang: str) -> list[LabResult]:
    """The kept results chosen by run number (a list of numbers, as the page's checkboxes send them)."""
    if not isinstance(selected, (list, tuple)):
        raise fail(lang, "err_bad_choice", name=text(lang, "param_lab_kept"), value=selected,
                   choices=", ".join(str(number) for number in session.kept))
    return [session.kept[check_choice(number, tuple(session.kept), lang, "lab_kept")] for number in selected]
