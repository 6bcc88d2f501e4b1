//! The test command's short, bounded fuzzing run: every target, a few hundred cases from a
//! fixed seed with the recorded corpus, must find no panic. (`fuzz/RUNS.md` records the long
//! runs.) The cases differ from the long runs' (another seed), so each test run also
//! explores a little.

use std::path::Path;

use warpscope_fuzz::{fuzz, TARGETS};

#[test]
fn every_boundary_survives_a_bounded_run() {
    for target in TARGETS {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus").join(target);
        let mut corpus: Vec<String> = std::fs::read_dir(&dir)
            .map(|entries| entries.filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok()).collect())
            .unwrap_or_default();
        corpus.sort();
        let findings = fuzz(target, 20_261_127, 400, &corpus, |_: &_| {});
        assert_eq!(findings.cases, 400);
        assert!(findings.accepted > 0, "{target}: no case got past the boundary, so nothing behind it was tried");
        assert_eq!(findings.panics, [], "{target}");
    }
}
