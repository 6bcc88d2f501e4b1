//! Every workload of the library compiles cleanly at its smallest and default sizes on every
//! machine preset, and the registry agrees with the file (the knob's default is the file's
//! `#define`). What each workload computes is checked in the `library_<category>` tests.

use warpscope_core::config::presets;
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::library;

/// A word the description of a category's paper's machine names it by.
fn paper_word(category: library::Category) -> &'static str {
    match category {
        library::Category::InterKernelReuse => "Inter-kernel reuse Table 2",
        library::Category::DynamicParallelism => "LaPerm",
        library::Category::CacheSensitivity => "CCWS",
        library::Category::ConcurrentKernels => "Concurrent-kernel",
        library::Category::CacheInterference => "CIAO",
    }
}

#[test]
fn the_registry_describes_its_files() {
    let mut ids = Vec::new();
    for w in library::all() {
        assert!(!ids.contains(&w.id), "{} is listed twice", w.id);
        ids.push(w.id);
        assert!(w.size.min <= w.size.default && w.size.default <= w.size.max, "{}: knob range", w.id);
        assert!(w.source.starts_with("//"), "{}: the file starts with a comment saying what it mimics", w.id);
        let paper = presets::by_id(w.category.paper_preset())
            .unwrap_or_else(|| panic!("{}: no preset {}", w.id, w.category.paper_preset()));
        assert!(paper.source.contains(paper_word(w.category)), "{}: {} is not its paper's machine", w.id, paper.id);
        let config = presets::fermi_gtx480();
        let program = compile(w.source, &CompileOptions { config: &config, defines: &[], optimize: true })
            .unwrap_or_else(|e| panic!("{} does not compile: {}", w.id, e[0]));
        let knob = program.defines.iter().find(|d| d.name == w.size.define);
        let knob = knob.unwrap_or_else(|| panic!("{}: no #define {}", w.id, w.size.define));
        assert_eq!(knob.value.trim(), w.size.default.to_string(), "{}: the registry's default is the file's", w.id);
        assert!(program.warnings.is_empty(), "{}: {}", w.id, program.warnings[0]);
    }
    assert!(library::all().count() >= 2);
}

#[test]
fn every_workload_fits_every_machine_at_its_smallest_size() {
    for w in library::all() {
        for preset in presets::ALL {
            let config = (preset.build)();
            let defines = [w.size_define(w.size.min)];
            let program = compile(w.source, &CompileOptions { config: &config, defines: &defines, optimize: true })
                .unwrap_or_else(|e| panic!("{} on {}: {}", w.id, preset.id, e[0]));
            program.workload.validate(&config).unwrap_or_else(|e| panic!("{} on {}: {e}", w.id, preset.id));
        }
    }
}
