"""Hypothesis defaults for the host tests: what a property asserts is behaviour, never speed
(speed lives in `make bench`), so the timing checks that fail on a loaded CI machine are off."""
import time

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("chessclock", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("chessclock")


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "seed(article, item): the test is a worked example of the seed's article "
        "for the item of shared/seed-requirements.md (docs/SEEDS.md is made from these)")


@pytest.fixture
def local_zone(monkeypatch):
    """zone(name): this process's local time zone is `name` (TZ, time.tzset()) until the
    test ends; then the one before it again."""
    def zone(name):
        monkeypatch.setenv("TZ", name)
        time.tzset()
    yield zone
    monkeypatch.undo()
    time.tzset()
