//! Command-line flags of the examples: `--name value` pairs and `--help`;
//! a mistake prints the usage line and exits with status 2.

use std::str::FromStr;

pub struct Flags {
    args: std::iter::Skip<std::env::Args>,
    usage: &'static str,
}

impl Flags {
    /// The process's flags; `usage` is the line printed on a mistake or
    /// for `--help`.
    pub fn new(usage: &'static str) -> Flags {
        Flags {
            args: std::env::args().skip(1),
            usage,
        }
    }

    /// The next flag; `--help` prints the usage and exits 0.
    pub fn next_flag(&mut self) -> Option<String> {
        let flag = self.args.next()?;
        if flag == "--help" || flag == "-h" {
            eprintln!("{}", self.usage);
            std::process::exit(0);
        }
        Some(flag)
    }

    /// The value after `flag`, parsed; `what` says what it should be.
    pub fn value<T: FromStr>(&mut self, flag: &str, what: &str) -> T {
        let text = self
            .args
            .next()
            .unwrap_or_else(|| self.fail(&format!("{flag} needs {what}")));
        text.parse()
            .unwrap_or_else(|_| self.fail(&format!("{flag} needs {what}, got {text:?}")))
    }

    /// Reports a mistake and exits with status 2.
    pub fn fail(&self, problem: &str) -> ! {
        eprintln!("error: {problem}");
        eprintln!("{}", self.usage);
        std::process::exit(2)
    }
}
