//! Minor page faults so far, read from Linux's `/proc` (0 elsewhere): what
//! the steady-state checks compare before and after a stretch of frames.
//! Reading allocates (a `String`): do it outside a counted stretch.

/// The whole process's minor page faults.
pub fn minor_faults_of_process() -> u64 {
    minor_faults("/proc/self/stat")
}

/// The calling thread's minor page faults.
pub fn minor_faults_of_this_thread() -> u64 {
    minor_faults("/proc/thread-self/stat")
}

fn minor_faults(stat_file: &str) -> u64 {
    let stat = std::fs::read_to_string(stat_file).unwrap_or_default();
    // The command name (field 2) may hold spaces: count from after its ')'.
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    after_name
        .split_whitespace()
        .nth(7)
        .and_then(|field| field.parse().ok())
        .unwrap_or(0)
}
