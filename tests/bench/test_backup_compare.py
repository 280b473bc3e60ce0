"""bench_backup's row-count check (bench/backup_compare.py), on counts alone."""

from bench.backup_compare import compare_counts

MANIFEST = {"facts_fact": 10, "profiles_profile": 2, "recall_doc": 10}


def test_a_profile_projected_while_the_erasures_were_counted_is_not_taken_for_theirs():
    # A streamed user's projection added a profile between the two counts; the erase deleted none.
    before, after = {"facts_fact": 12, "profiles_profile": 3}, {"facts_fact": 7, "profiles_profile": 4}
    restored = {"facts_fact": 5, "profiles_profile": 2, "recall_doc": 5}
    counts = compare_counts(MANIFEST, before, after, restored, {"facts": 5, "profiles": 0})
    assert counts["unequal"] == {} and counts["equal_but_erasures"]


def test_the_erased_persons_profile_back_in_the_restored_store_is_found():
    before, after = {"facts_fact": 12, "profiles_profile": 3}, {"facts_fact": 7, "profiles_profile": 2}
    restored = {"facts_fact": 5, "profiles_profile": 2, "recall_doc": 5}
    counts = compare_counts(MANIFEST, before, after, restored, {"facts": 5, "profiles": 1})
    assert counts["unequal"] == {"profiles_profile": {"manifest": 2, "erasures": -1, "restored": 2}}
