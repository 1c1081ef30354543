"""The competition rules the arbiter's commands compute, apart from the clock: deadlines and
appeals (`deadline`), the knockout bracket (`knockout`), rapid events' schedules (`rounds`),
team matches (`team`) and how long records are kept (`retention`)."""
