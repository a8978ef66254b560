//! Wall-clock formatting without a date library: the compact timestamps of
//! branch and backup names, and RFC 3339 for journals. Always UTC.

use std::time::{SystemTime, UNIX_EPOCH};

/// A UTC calendar time, to the second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Utc {
    /// Year, e.g. 2026.
    pub year: i64,
    /// Month, 1–12.
    pub month: u32,
    /// Day of the month, 1–31.
    pub day: u32,
    /// Hour, 0–23.
    pub hour: u32,
    /// Minute, 0–59.
    pub minute: u32,
    /// Second, 0–59.
    pub second: u32,
}

impl Utc {
    /// Returns the calendar time of `t` (times before 1970 clamp to 1970).
    pub fn from_system(t: SystemTime) -> Utc {
        let secs = t
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0);
        Utc::from_unix(secs)
    }

    /// Returns the calendar time `secs` seconds after the Unix epoch.
    pub fn from_unix(secs: i64) -> Utc {
        let days = secs.div_euclid(86_400);
        let rem = secs.rem_euclid(86_400);
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = yoe + era * 400 + i64::from(month <= 2);
        Utc {
            year,
            month,
            day,
            hour: (rem / 3600) as u32,
            minute: (rem % 3600 / 60) as u32,
            second: (rem % 60) as u32,
        }
    }

    /// Returns the current time.
    pub fn now() -> Utc {
        Utc::from_system(SystemTime::now())
    }

    /// Formats as `YYYYMMDD-HHMMSS`, the form used in names.
    pub fn compact(&self) -> String {
        format!(
            "{:04}{:02}{:02}-{:02}{:02}{:02}",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }

    /// Formats as RFC 3339 (`2026-03-02T00:55:51Z`).
    pub fn rfc3339(&self) -> String {
        format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_known_instants() {
        assert_eq!(Utc::from_unix(0).compact(), "19700101-000000");
        // 2026-03-02T00:55:51Z, the seed's backup example.
        let t = Utc::from_unix(1_772_412_951);
        assert_eq!(t.compact(), "20260302-005551");
        assert_eq!(t.rfc3339(), "2026-03-02T00:55:51Z");
        assert_eq!(Utc::from_unix(951_782_400).compact(), "20000229-000000");
    }
}
