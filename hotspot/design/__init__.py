"""Game-design tools: questions about the game itself, answered by playing
it through the arena (``hotspot.arena``), which never imports this package.

* ``balance``: the Technocrat's score over a grid of set-ups, rules options
  and agent pairs (:func:`run_balance`, ``hotspot balance``); its plots
  (``balance_plots``) and its text and HTML report (``report``).
* ``skill``: reading a skill grid (balance as a function of skill) and what a
  restricted-play probe changes.
* ``calibrate``: the values of named knobs that bring the Technocrat's score
  to a target (:func:`run_calibration`, ``hotspot calibrate``).
* ``deployment``: one side's set-up improved against a fixed opponent
  (:func:`search_deployment`, ``hotspot search-deployment``).
* ``game_report``: a report of one or more set-ups side by side
  (:func:`run_report`, ``hotspot report``): its readings (``readings``) and
  its page (``report_page``).
"""

from .balance import run_balance
from .calibrate import run_calibration
from .deployment import search_deployment
from .game_report import run_report

__all__ = ["run_balance", "run_calibration", "run_report", "search_deployment"]
