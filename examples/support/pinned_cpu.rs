//! Pinning a process to one core and reading the calling thread's CPU
//! clock: what the examples that compare contenders in processes of their
//! own (alternating pairs) measure with. The same calls as the server
//! example's (`examples/server`).

// Shared by several examples, each of which uses part of it.
#![allow(dead_code)]

/// Pins the calling thread (and the threads it starts afterwards, which
/// inherit its mask) to CPU `cpu` when the machine has more than one
/// (Linux). Returns the CPU it pinned to, if it did.
pub fn pin_to(cpu: usize) -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        if cpus > 1 {
            let mut set = rustix::thread::CpuSet::new();
            set.set(cpu % cpus);
            if rustix::thread::sched_setaffinity(None, &set).is_ok() {
                return Some(cpu % cpus);
            }
        }
        None
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = cpu;
        None
    }
}

/// The calling thread's CPU time in nanoseconds (0 where there is no such
/// clock): what a frame costs the thread, whatever the scheduler did
/// meanwhile (a wait for the GPU costs nothing).
pub fn thread_cpu_ns() -> u64 {
    #[cfg(target_os = "linux")]
    {
        let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        now.tv_sec as u64 * 1_000_000_000 + now.tv_nsec as u64
    }
    #[cfg(not(target_os = "linux"))]
    0
}

/// The median of `values` (sorted here; 0 when empty).
pub fn median<T: Copy + Default + PartialOrd>(values: &mut [T]) -> T {
    values.sort_by(|a, b| a.partial_cmp(b).unwrap());
    values.get(values.len() / 2).copied().unwrap_or_default()
}
