//! The engine's Web Workers as a pool: which job runs on which worker, which jobs wait, and
//! when a worker is started, replaced or given up. Pure (the app owns the actual workers and
//! follows [`Pool::workers`]), tested natively.
//!
//! Every worker runs one job at a time. Jobs wait in one queue, in order (the Simulate view's
//! run goes ahead of the others: a person is watching it); whenever a worker is ready and idle
//! it takes the first. The pool starts with one worker (it also answers `Catalog` and
//! `Compile`) and starts more only while jobs wait that the workers starting already will not
//! take, up to [`Pool::size`] — one per core the browser reports, capped at [`MAX_WORKERS`] —
//! or when a view that spreads its runs over workers opens ([`Pool::start_all`]), so that
//! they are up (their code compiled) by the time its runs start.
//!
//! Each worker the app spawns has a generation, unique for the page's lifetime; replies carry
//! the generation of the worker they came from, so those of a worker that has since crashed or
//! been replaced match no slot and are dropped. A worker that crashes after it was ready is
//! replaced (a new generation in the same slot) and its job fails; one that dies before it was
//! ever ready is given up, not restarted, so that a browser that cannot run the worker at all
//! does not spawn one after another. Crashes that follow one another with no job ending in
//! between are a worker that cannot work here: after [`MAX_CRASHES_IN_A_ROW`] the crashed
//! worker is given up too.

use std::collections::VecDeque;

use warpscope_wasm::protocol::{Job, JobId};

/// Most workers a page starts, whatever the core count (the same bound as `?workers=N`). A
/// worker is started only when a job is waiting for one; an idle one holds 2.8 MiB of
/// WebAssembly memory (most of it its warm-up's, `warpscope_wasm::warm_up`), and one that has
/// run holds about its largest run's memory (1.2–1.5× the native engine's peak:
/// `tests/e2e/worker-memory-bench.mjs`). This cap was 4 while device
/// memory grew by doubling and a worker could hold 3.4× its run's.
pub const MAX_WORKERS: usize = 16;

/// Crashes with no job ending between them after which a crashed worker is not replaced.
pub const MAX_CRASHES_IN_A_ROW: u32 = 3;

/// Where a job's result goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The Simulate view.
    Main,
    /// Variant `n` of the compare view.
    Compare(usize),
    /// Run `run` of gallery card `card` (the card's runs in [`warpscope_core::claims::plan::runs`] order).
    Card {
        /// Card index.
        card: usize,
        /// Run index within the card.
        run: usize,
    },
    /// Point `point` of warp-limit sweep `sweep` (a serial: an older sweep's runs find no view).
    Sweep {
        /// The sweep's serial.
        sweep: u32,
        /// The limit's index in the sweep.
        point: usize,
    },
    /// Run `run` of pair matrix `matrix` (a serial, as a sweep's), in
    /// [`crate::pair_matrix::MatrixSpec::jobs`] order.
    Pair {
        /// The matrix's serial.
        matrix: u32,
        /// The run's index in the matrix.
        run: usize,
    },
}

/// A job waiting for (or holding) a worker.
#[derive(Clone, Debug, PartialEq)]
pub struct QueuedJob {
    /// Its id.
    pub id: JobId,
    /// Where its result goes.
    pub target: Target,
    /// What to run (a `Simulate` job carries its own snapshot interval).
    pub job: Job,
}

/// Whether a worker can take a job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkerStatus {
    /// Loading; it takes jobs once it says it is ready.
    Starting,
    /// Listening.
    Ready,
    /// Died before it was ever ready (or the browser would not start it): not restarted.
    Gone,
}

/// One worker of the pool.
#[derive(Clone, Debug, PartialEq)]
pub struct Worker {
    /// The generation of the worker now in this slot.
    pub generation: u32,
    /// Its status.
    pub status: WorkerStatus,
    /// The job it runs.
    pub job: Option<QueuedJob>,
}

/// What became of a worker that died.
#[derive(Clone, Debug, PartialEq)]
pub struct Death {
    /// The job it was running, now lost.
    pub lost: Option<QueuedJob>,
    /// Whether a fresh worker replaces it (false: it never started, or crashed
    /// [`MAX_CRASHES_IN_A_ROW`] times with no job ending in between, and is given up).
    pub replaced: bool,
    /// Whether it had been ready (it crashed while working, rather than failing to start).
    pub was_ready: bool,
}

/// The workers, their jobs and the queue.
#[derive(Clone, Debug, PartialEq)]
pub struct Pool {
    size: usize,
    workers: Vec<Worker>,
    queue: VecDeque<QueuedJob>,
    next_generation: u32,
    /// Workers that crashed after being ready since a job last ended.
    crashes_in_a_row: u32,
}

/// How many workers to run: `requested` (a `?workers=N` in the page's address, for
/// measurements) if it is a number from 1 to 16, else the browser's core count
/// (`navigator.hardwareConcurrency`, absent in some browsers) capped at [`MAX_WORKERS`];
/// at least 1.
pub fn pool_size(hardware_concurrency: Option<f64>, requested: Option<&str>) -> usize {
    if let Some(n) = requested.and_then(|r| r.trim().parse::<usize>().ok()).filter(|n| (1..=MAX_WORKERS).contains(n)) {
        return n;
    }
    match hardware_concurrency {
        Some(cores) if cores.is_finite() && cores >= 1.0 => (cores as usize).min(MAX_WORKERS),
        _ => 1,
    }
}

impl Pool {
    /// A pool of at most `size` workers (at least 1), with its first worker starting.
    pub fn new(size: usize) -> Pool {
        let first = Worker { generation: 0, status: WorkerStatus::Starting, job: None };
        Pool {
            size: size.max(1),
            workers: vec![first],
            queue: VecDeque::new(),
            next_generation: 1,
            crashes_in_a_row: 0,
        }
    }

    /// Most workers it runs.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Its workers, in slot order (the app keeps one Web Worker per slot that is not gone).
    pub fn workers(&self) -> &[Worker] {
        &self.workers
    }

    /// The jobs waiting, in the order they will start.
    pub fn queue(&self) -> &VecDeque<QueuedJob> {
        &self.queue
    }

    /// The slot of the worker of `generation`, if it is still the one there.
    fn slot(&self, generation: u32) -> Option<usize> {
        self.workers.iter().position(|w| w.generation == generation && w.status != WorkerStatus::Gone)
    }

    /// The worker that answers `Catalog` and `Compile`: the first that is ready.
    pub fn primary(&self) -> Option<&Worker> {
        self.workers.iter().find(|w| w.status == WorkerStatus::Ready)
    }

    /// Whether the worker of `generation` is one of the pool's (not a dead one's late reply).
    pub fn knows(&self, generation: u32) -> bool {
        self.slot(generation).is_some()
    }

    /// Whether every worker the pool may start has been given up.
    pub fn all_gone(&self) -> bool {
        self.workers.len() >= self.size && self.workers.iter().all(|w| w.status == WorkerStatus::Gone)
    }

    /// Whether a job for a target matching `which` waits or runs.
    pub fn busy(&self, which: impl Fn(Target) -> bool) -> bool {
        self.queue.iter().chain(self.workers.iter().filter_map(|w| w.job.as_ref())).any(|j| which(j.target))
    }

    /// The job `id` if the worker of `generation` runs it: its target.
    pub fn running(&self, generation: u32, id: JobId) -> Option<Target> {
        let job = self.workers[self.slot(generation)?].job.as_ref()?;
        (job.id == id).then_some(job.target)
    }

    /// The job `id` if the worker of `generation` runs it.
    pub fn running_job(&self, generation: u32, id: JobId) -> Option<&QueuedJob> {
        self.workers[self.slot(generation)?].job.as_ref().filter(|j| j.id == id)
    }

    /// The running jobs whose target matches `which`: (worker generation, job id), for the
    /// app to send `Cancel` to.
    pub fn running_matching(&self, which: impl Fn(Target) -> bool) -> Vec<(u32, JobId)> {
        self.workers
            .iter()
            .filter_map(|w| w.job.as_ref().filter(|j| which(j.target)).map(|j| (w.generation, j.id)))
            .collect()
    }

    /// Queues `job`, replacing a queued job of the same target. The Simulate view's run goes
    /// ahead of every queued job; others go last. Call [`Pool::schedule`] after.
    pub fn enqueue(&mut self, job: QueuedJob) {
        self.queue.retain(|q| q.target != job.target);
        match job.target {
            Target::Main => self.queue.push_front(job),
            _ => self.queue.push_back(job),
        }
    }

    /// Drops the queued jobs whose target matches `which`; returns their targets.
    pub fn drop_queued(&mut self, which: impl Fn(Target) -> bool) -> Vec<Target> {
        let dropped = self.queue.iter().map(|q| q.target).filter(|&t| which(t)).collect();
        self.queue.retain(|q| !which(q.target));
        dropped
    }

    /// Takes every queued and running job out (nothing can run them).
    pub fn drain(&mut self) -> Vec<QueuedJob> {
        let running = self.workers.iter_mut().filter_map(|w| w.job.take());
        running.collect::<Vec<_>>().into_iter().chain(self.queue.drain(..)).collect()
    }

    /// Gives queued jobs to idle ready workers, first come first served, and starts workers
    /// for the jobs left that the starting ones will not take, up to the pool's size.
    pub fn schedule(&mut self) {
        while !self.queue.is_empty() {
            let Some(idle) = self.workers.iter_mut().find(|w| w.status == WorkerStatus::Ready && w.job.is_none())
            else {
                break;
            };
            idle.job = self.queue.pop_front();
        }
        let mut starting = self.workers.iter().filter(|w| w.status == WorkerStatus::Starting).count();
        while self.queue.len() > starting && self.workers.len() < self.size {
            let generation = self.fresh_generation();
            self.workers.push(Worker { generation, status: WorkerStatus::Starting, job: None });
            starting += 1;
        }
    }

    /// Starts every worker the pool may run that has not been started yet.
    pub fn start_all(&mut self) {
        while self.workers.len() < self.size {
            let generation = self.fresh_generation();
            self.workers.push(Worker { generation, status: WorkerStatus::Starting, job: None });
        }
    }

    /// The worker of `generation` said it is ready.
    pub fn ready(&mut self, generation: u32) {
        if let Some(slot) = self.slot(generation) {
            self.workers[slot].status = WorkerStatus::Ready;
            self.schedule();
        }
    }

    /// Job `id` on the worker of `generation` ended (done, cancelled or failed): the worker
    /// is free. Returns the job's target, or `None` if that worker does not run that job.
    pub fn finish(&mut self, generation: u32, id: JobId) -> Option<Target> {
        let target = self.running(generation, id)?;
        let slot = self.slot(generation)?;
        self.workers[slot].job = None;
        self.crashes_in_a_row = 0;
        self.schedule();
        Some(target)
    }

    /// The worker of `generation` died. One that had been ready is replaced by a fresh one (a
    /// new generation in its slot); one that never was is given up. `None`: that worker was
    /// already replaced or given up (a second report of the same death).
    pub fn died(&mut self, generation: u32) -> Option<Death> {
        let slot = self.slot(generation)?;
        let was_ready = self.workers[slot].status == WorkerStatus::Ready;
        if was_ready {
            self.crashes_in_a_row += 1;
        }
        let replaced = was_ready && self.crashes_in_a_row < MAX_CRASHES_IN_A_ROW;
        let fresh = self.fresh_generation();
        let worker = &mut self.workers[slot];
        let lost = worker.job.take();
        if replaced {
            *worker = Worker { generation: fresh, status: WorkerStatus::Starting, job: None };
        } else {
            worker.status = WorkerStatus::Gone;
        }
        self.schedule();
        Some(Death { lost, replaced, was_ready })
    }

    fn fresh_generation(&mut self) -> u32 {
        self.next_generation += 1;
        self.next_generation - 1
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use warpscope_core::mem::cache::{CacheGeometry, Replacement};
    use warpscope_core::sweep::AccessPattern;
    use warpscope_core::CacheSweepSpec;

    /// Any job will do: the pool does not look inside.
    pub(crate) fn job(id: JobId, target: Target) -> QueuedJob {
        let spec = CacheSweepSpec {
            cache: CacheGeometry { size_bytes: 4096, line_bytes: 128, ways: 4 },
            replacement: Replacement::Lru,
            pattern: AccessPattern::Strided { footprint_bytes: 8192, stride_bytes: 4 },
            passes: 1,
        };
        QueuedJob { id, target, job: Job::CacheSweep(spec) }
    }

    fn card(run: usize) -> Target {
        Target::Card { card: 0, run }
    }

    /// Each worker's job id (None: idle), and each worker's status.
    fn jobs(pool: &Pool) -> Vec<Option<JobId>> {
        pool.workers().iter().map(|w| w.job.as_ref().map(|j| j.id)).collect()
    }

    fn statuses(pool: &Pool) -> Vec<WorkerStatus> {
        pool.workers().iter().map(|w| w.status).collect()
    }

    fn enqueue(pool: &mut Pool, jobs: impl IntoIterator<Item = QueuedJob>) {
        for job in jobs {
            pool.enqueue(job);
        }
        pool.schedule();
    }

    #[test]
    fn the_size_follows_the_cores_the_browser_reports_capped_and_at_least_one() {
        assert_eq!(pool_size(Some(2.0), None), 2);
        assert_eq!(pool_size(Some(8.0), None), 8, "one worker per core");
        assert_eq!(pool_size(Some(64.0), None), MAX_WORKERS);
        assert_eq!(pool_size(Some(0.0), None), 1);
        assert_eq!(pool_size(None, None), 1);
        assert_eq!(pool_size(Some(f64::NAN), None), 1);
        assert_eq!(pool_size(Some(8.0), Some("1")), 1, "the address may ask for one worker, to measure");
        assert_eq!(pool_size(Some(2.0), Some("6")), 6);
        assert_eq!(pool_size(Some(2.0), Some("0")), 2, "out of range: ignored");
        assert_eq!(pool_size(Some(2.0), Some("lots")), 2);
    }

    #[test]
    fn a_cards_runs_spread_over_the_workers_one_job_each() {
        let mut pool = Pool::new(2);
        pool.ready(0);
        enqueue(&mut pool, (0..5).map(|i| job(10 + i as JobId, card(i))));
        // One worker is ready and takes the first run; a second starts for the rest.
        assert_eq!(jobs(&pool), [Some(10), None]);
        assert_eq!(statuses(&pool), [WorkerStatus::Ready, WorkerStatus::Starting]);
        let second = pool.workers()[1].generation;
        assert_ne!(second, 0, "every worker has its own generation");
        pool.ready(second);
        assert_eq!(jobs(&pool), [Some(10), Some(11)]);
        assert_eq!(pool.queue().len(), 3, "no third worker beyond the size");
        // Whichever finishes first takes the next run.
        assert_eq!(pool.finish(second, 11), Some(card(1)));
        assert_eq!(jobs(&pool), [Some(10), Some(12)]);
        assert_eq!(pool.finish(0, 10), Some(card(0)));
        assert_eq!(jobs(&pool), [Some(13), Some(12)]);
        assert_eq!(pool.finish(0, 12), None, "job 12 runs on the other worker");
        assert_eq!(pool.finish(second, 12), Some(card(2)));
        assert_eq!(pool.finish(0, 13), Some(card(3)));
        assert_eq!(pool.finish(second, 14), Some(card(4)), "the freed worker took the last run");
        assert!(!pool.busy(|_| true));
        assert_eq!(pool.workers().len(), 2, "idle workers stay for the next card");
    }

    #[test]
    fn workers_start_only_for_jobs_that_would_otherwise_wait() {
        let mut pool = Pool::new(4);
        enqueue(&mut pool, [job(1, Target::Main)]);
        assert_eq!(pool.workers().len(), 1, "the first worker, still starting, will take it");
        enqueue(&mut pool, [job(2, Target::Compare(0)), job(3, Target::Compare(1))]);
        assert_eq!(pool.workers().len(), 3);
        pool.ready(0);
        assert_eq!(jobs(&pool), [Some(1), None, None]);
        assert_eq!(pool.primary().map(|w| w.generation), Some(0));
    }

    #[test]
    fn a_view_that_runs_in_parallel_starts_the_whole_pool_at_once_and_only_once() {
        let mut pool = Pool::new(3);
        pool.start_all();
        assert_eq!(statuses(&pool), [WorkerStatus::Starting; 3]);
        let generations: Vec<u32> = pool.workers().iter().map(|w| w.generation).collect();
        pool.start_all();
        enqueue(&mut pool, (0..5).map(|i| job(i as JobId, card(i))));
        assert_eq!(pool.workers().iter().map(|w| w.generation).collect::<Vec<_>>(), generations);
        for g in generations {
            pool.ready(g);
        }
        assert_eq!(jobs(&pool), [Some(0), Some(1), Some(2)]);
    }

    #[test]
    fn the_simulate_views_run_goes_ahead_and_a_requeued_target_replaces_its_job() {
        let mut pool = Pool::new(1);
        enqueue(&mut pool, [job(1, card(0)), job(2, card(1)), job(3, Target::Main), job(4, card(1))]);
        let order: Vec<JobId> = pool.queue().iter().map(|j| j.id).collect();
        assert_eq!(order, [3, 1, 4]);
        pool.ready(0);
        assert_eq!(jobs(&pool), [Some(3)]);
    }

    #[test]
    fn a_crashed_worker_is_replaced_and_only_its_job_is_lost() {
        let mut pool = Pool::new(2);
        pool.ready(0);
        enqueue(&mut pool, [job(1, card(0)), job(2, card(1)), job(3, card(2))]);
        let second = pool.workers()[1].generation;
        pool.ready(second);
        let death = pool.died(second).expect("a worker of the pool");
        assert_eq!(death.lost.map(|j| j.id), Some(2));
        assert!(death.replaced);
        let fresh = pool.workers()[1].generation;
        assert!(fresh != second && fresh != 0);
        assert_eq!(statuses(&pool), [WorkerStatus::Ready, WorkerStatus::Starting]);
        assert_eq!(pool.died(second), None, "the same death reported twice restarts nothing");
        assert_eq!(pool.finish(second, 2), None, "the dead worker's late reply is dropped");
        assert!(!pool.knows(second));
        assert_eq!(jobs(&pool), [Some(1), None], "the other worker's run goes on");
        pool.ready(fresh);
        assert_eq!(jobs(&pool), [Some(1), Some(3)], "the replacement takes the next job");
    }

    #[test]
    fn crashes_in_a_row_give_the_worker_up_and_a_job_ending_resets_the_count() {
        let mut pool = Pool::new(1);
        let crash = |pool: &mut Pool| {
            let g = pool.workers()[0].generation;
            pool.ready(g);
            pool.died(g).expect("known")
        };
        assert!(crash(&mut pool).replaced && crash(&mut pool).replaced);
        // A job ends on the third worker: the count starts again.
        let g = pool.workers()[0].generation;
        pool.ready(g);
        enqueue(&mut pool, [job(1, card(0))]);
        assert_eq!(pool.finish(g, 1), Some(card(0)));
        assert!(crash(&mut pool).replaced && crash(&mut pool).replaced);
        let third = crash(&mut pool);
        assert!(third.was_ready && !third.replaced, "three crashes in a row: given up");
        assert!(pool.all_gone());
    }

    #[test]
    fn a_worker_that_never_starts_is_given_up_not_restarted() {
        let mut pool = Pool::new(2);
        enqueue(&mut pool, [job(1, card(0)), job(2, card(1))]);
        assert_eq!(pool.workers().len(), 2);
        let second = pool.workers()[1].generation;
        let death = pool.died(second).expect("a worker of the pool");
        assert!(!death.replaced && death.lost.is_none());
        assert_eq!(statuses(&pool), [WorkerStatus::Starting, WorkerStatus::Gone]);
        assert!(!pool.all_gone());
        pool.ready(0);
        assert_eq!(jobs(&pool), [Some(1), None], "the jobs wait for the worker that did start");
        // A ready worker that dies is replaced; the replacement dying at start is given up.
        assert!(pool.died(0).expect("known").replaced);
        let fresh = pool.workers()[0].generation;
        assert!(!pool.died(fresh).expect("known").replaced);
        assert!(pool.all_gone());
        assert_eq!(pool.drain().len(), 1, "job 2 waits for a worker that will never come");
        assert_eq!(pool.workers().len(), 2, "no worker was started beyond the size");
    }

    #[test]
    fn cancelling_names_the_running_jobs_and_drops_the_queued_ones_of_that_view() {
        let mut pool = Pool::new(2);
        pool.ready(0);
        enqueue(&mut pool, [job(1, Target::Compare(0)), job(2, Target::Main), job(3, Target::Compare(1))]);
        // Main went ahead: worker 0 runs it.
        assert_eq!(jobs(&pool), [Some(2), None]);
        let second = pool.workers()[1].generation;
        pool.ready(second);
        assert_eq!(jobs(&pool), [Some(2), Some(1)]);
        let compare = |t: Target| matches!(t, Target::Compare(_));
        assert_eq!(pool.running_matching(compare), [(second, 1)]);
        assert_eq!(pool.drop_queued(compare), [Target::Compare(1)]);
        assert!(pool.busy(compare), "until the worker says it stopped");
        pool.finish(second, 1);
        assert!(!pool.busy(compare) && pool.busy(|t| t == Target::Main));
    }
}
