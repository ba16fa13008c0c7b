"""The Train page with every text trained in a session worker (the in-process threshold set to 0): the
stage, the jump, the quiz, the tables and the what-if work on a :class:`RemoteTrainer` as on the engine's
own trainer, and a new text's run lets the old worker go."""

from __future__ import annotations

import gc
from collections.abc import Callable

import pytest

from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.workers import remote_trainer
from mergescope_ui.shared.workers.remote_trainer import RemoteTrainer
from mergescope_ui.train import keys
from tests.ui.shared.test_jobs import gone, until
from tests.ui.train import test_page, test_whatif

CASES = [
    test_page.test_next_three_back_one_is_step_two_without_retraining,
    test_page.test_jump_pulls_up_to_the_step_and_moves_the_stage,
    test_page.test_a_jump_past_the_end_says_where_training_stopped,
    test_page.test_quiz_grades_the_guess_when_next_reveals_the_merge,
    test_page.test_merges_so_far_table_and_csv_download_cover_every_merge,
    test_page.test_special_tokens_are_cut_out_and_shown_whole,
    test_page.test_more_places_are_sent_when_the_stage_asks_for_them,
    test_whatif.test_blocking_the_pair_and_stepping_both_histories_together,
    test_whatif.test_training_both_to_the_end_compares_the_final_vocabularies,
]


@pytest.fixture
def remote(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(remote_trainer, "IN_PROCESS_CHARS", 0)


@pytest.mark.parametrize("case", CASES, ids=[c.__name__.removeprefix("test_") for c in CASES])
def test_the_page_works_the_same_with_a_remote_trainer(case: Callable[[], None], remote: None) -> None:
    case()


def test_the_page_trains_remotely_and_a_new_text_lets_the_old_worker_go(remote: None) -> None:
    at = test_page._train(**{keys.SOURCE: "lighthouse_story"})
    run = at.session_state[shared_keys.RUN]
    assert isinstance(run.trainer, RemoteTrainer)
    pid = run.trainer.worker.pid
    assert pid is not None and not gone(pid)
    del run
    at.session_state[keys.SOURCE] = "cat_in_the_hat"
    at.run()
    assert not at.exception
    assert isinstance(at.session_state[shared_keys.RUN].trainer, RemoteTrainer)
    at.run()  # Streamlit keeps the state before a run's changes until the next run ends
    gc.collect()
    until(lambda: gone(pid))
