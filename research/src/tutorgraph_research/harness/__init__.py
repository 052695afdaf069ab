"""The benchmark harness: stable folds and items, the one fold runner, tidy results and
where they came from, and the retrieval configurations the runs compare."""
