//! An allocator that counts, for the tests that hold a tick or a search to no allocation: each
//! test file installs it (`#[global_allocator]`) and reads its own thread's count — or, for a
//! tick split among threads, the count of a pool of its own ([`counted_pool`]), every thread of
//! which counts together.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

pub struct Counting;

thread_local! {
    /// Allocations made on this thread (each test counts its own).
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    /// The pool's count this thread adds to, if it is a thread of a counted pool.
    static POOL: Cell<Option<&'static AtomicU64>> = const { Cell::new(None) };
}

fn count() {
    ALLOCATIONS.with(|n| n.set(n.get() + 1));
    if let Some(pool) = POOL.with(Cell::get) {
        pool.fetch_add(1, Ordering::Relaxed);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Allocations (and reallocations) this thread has made so far.
pub fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

/// A rayon pool of `threads` threads whose allocations are counted together (rayon's own
/// included): run the ticks inside it (`install`) and read [`CountedPool::allocations`].
pub struct CountedPool {
    pub pool: rayon::ThreadPool,
    count: &'static AtomicU64,
}

impl CountedPool {
    /// Allocations made so far on the pool's threads.
    pub fn allocations(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }
}

/// A pool of `threads` counted threads (each pool a count of its own, kept for the test's life).
pub fn counted_pool(threads: usize) -> CountedPool {
    let count: &'static AtomicU64 = Box::leak(Box::new(AtomicU64::new(0)));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .start_handler(move |_| POOL.with(|p| p.set(Some(count))))
        .build()
        .expect("the machine starts a few threads");
    // Each thread's first look for work sets up what it keeps for the rest of its life (its
    // handle in crossbeam's epoch collector): done here, before anything is counted, and not
    // whenever a thread the tick has not needed yet first wakes.
    pool.broadcast(|_| ());
    CountedPool { pool, count }
}
