//! Runs one test of this binary again in a child process, for cases that
//! end the process (an abort, a sanitizer report) or change it for good (a
//! memory limit). The test sees `var` set to the case it is to run.

use std::process::{Command, Output};

/// Runs the test at `test_path` (`module::name`) alone in a child process
/// with `var=case` and `RUST_BACKTRACE=0` (a backtrace needs memory and
/// time that a failing child may not have).
pub fn rerun_test(test_path: &str, var: &str, case: &str) -> Output {
    Command::new(std::env::current_exe().unwrap())
        .args(["--exact", test_path, "--test-threads=1", "--nocapture"])
        .env(var, case)
        .env("RUST_BACKTRACE", "0")
        .output()
        .unwrap()
}
