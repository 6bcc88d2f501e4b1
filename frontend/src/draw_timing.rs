//! How long the views take to draw, as entries of the page's performance timeline
//! (`performance.measure`), so that the render benchmark (`tests/e2e/render-bench.mjs`) and the
//! browser's profiler see them.
//!
//! Only the latest entry of each name stays in the timeline, so a page left open does not
//! collect one entry per frame; a `PerformanceObserver` still receives every one.

/// Runs `work` and records how long it took as a measure named `name` (`timeline:blocks`,
/// `heatmap:draw`, …). Without a performance timeline it just runs `work`.
pub fn timed<T>(name: &str, work: impl FnOnce() -> T) -> T {
    let Some(performance) = web_sys::window().and_then(|w| w.performance()) else { return work() };
    let (start, end) = (format!("{name}:start"), format!("{name}:end"));
    let _ = performance.mark(&start);
    let out = work();
    let _ = performance.mark(&end);
    performance.clear_measures_with_measure_name(name);
    let _ = performance.measure_with_start_mark_and_end_mark(name, &start, &end);
    performance.clear_marks_with_mark_name(&start);
    performance.clear_marks_with_mark_name(&end);
    out
}
