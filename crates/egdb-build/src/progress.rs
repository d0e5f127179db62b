//! What the builders' progress lines share: one way to write a duration, and the
//! processor time spent.

use std::time::Duration;

/// A duration as a progress line shows it: `2h05m`, `3m07s` or `4.2s`, as precise
/// as an ETA or a unit's time deserves at its size.
#[must_use]
pub fn format_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s / 60 % 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{:.1}s", d.as_secs_f64())
    }
}

/// The processor time this process has used, user and system, all threads
/// (Linux; zero elsewhere): on a shared machine a phase's wall time says little.
#[must_use]
pub fn cpu_time() -> Duration {
    // Fields 14 and 15 of /proc/self/stat, after the command name in brackets,
    // in ticks of 1/100 s (USER_HZ, 100 on every Linux the kernel ABI allows).
    let ticks = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|stat| {
            let rest = &stat[stat.rfind(')')? + 2..];
            let mut fields = rest.split(' ').skip(11);
            let user: u64 = fields.next()?.parse().ok()?;
            let system: u64 = fields.next()?.parse().ok()?;
            Some(user + system)
        });
    Duration::from_millis(ticks.unwrap_or(0) * 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_at_the_precision_of_their_size() {
        assert_eq!(format_duration(Duration::from_millis(4_249)), "4.2s");
        assert_eq!(format_duration(Duration::from_secs(187)), "3m07s");
        assert_eq!(format_duration(Duration::from_secs(7_500)), "2h05m");
    }
}
