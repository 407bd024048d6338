//! A desk's queue, shared fairly between client addresses: each address
//! waits in a queue of its own, the desk's workers take the addresses in
//! turn (round robin), and an address has at most one line being
//! resolved at a time. So one address asking for long odds over and over
//! keeps one worker busy at most, and another address's cheap line is
//! taken by the next worker free, not after every line of the first.

use std::collections::{HashMap, HashSet, VecDeque};
use std::net::IpAddr;
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// Why a line was not queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Full {
    /// This address has as many lines waiting as it may.
    Address,
    /// The desk has as many lines waiting as it may, from all addresses.
    Desk,
}

pub(crate) struct Fair<T> {
    queues: Mutex<Queues<T>>,
    ready: Condvar,
    /// Lines waiting at once, in all.
    most: usize,
    /// Lines waiting at once from one address.
    each: usize,
}

struct Queues<T> {
    waiting: HashMap<IpAddr, VecDeque<T>>,
    /// The addresses with lines waiting, in the order they are served.
    turns: VecDeque<IpAddr>,
    /// The addresses with a line being resolved.
    running: HashSet<IpAddr>,
    count: usize,
}

impl<T> Fair<T> {
    pub(crate) fn new(most: usize, each: usize) -> Fair<T> {
        Fair {
            queues: Mutex::new(Queues {
                waiting: HashMap::new(),
                turns: VecDeque::new(),
                running: HashSet::new(),
                count: 0,
            }),
            ready: Condvar::new(),
            most,
            each,
        }
    }

    /// Queue `job` for `ip`, or say which queue is full.
    pub(crate) fn push(&self, ip: IpAddr, job: T) -> Result<(), (Full, T)> {
        let mut q = self.queues.lock().unwrap_or_else(|e| e.into_inner());
        if q.count >= self.most {
            return Err((Full::Desk, job));
        }
        let mine = q.waiting.entry(ip).or_default();
        if mine.len() >= self.each {
            return Err((Full::Address, job));
        }
        mine.push_back(job);
        if !q.turns.contains(&ip) {
            q.turns.push_back(ip);
        }
        q.count += 1;
        drop(q);
        self.ready.notify_one();
        Ok(())
    }

    /// The next job, by turns among the addresses that have none being
    /// resolved; `None` after `wait` with nothing to take. Call
    /// [`Fair::done`] with its address once it is resolved.
    pub(crate) fn next(&self, wait: Duration) -> Option<(IpAddr, T)> {
        let mut q = self.queues.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(taken) = q.take() {
                return Some(taken);
            }
            let (again, timeout) = self
                .ready
                .wait_timeout(q, wait)
                .unwrap_or_else(|e| e.into_inner());
            q = again;
            if timeout.timed_out() {
                return q.take();
            }
        }
    }

    /// `ip`'s job is resolved: its next one may be taken.
    pub(crate) fn done(&self, ip: IpAddr) {
        let mut q = self.queues.lock().unwrap_or_else(|e| e.into_inner());
        q.running.remove(&ip);
        let more = q.turns.contains(&ip);
        drop(q);
        if more {
            self.ready.notify_one();
        }
    }
}

impl<T> Queues<T> {
    fn take(&mut self) -> Option<(IpAddr, T)> {
        let at = self
            .turns
            .iter()
            .position(|ip| !self.running.contains(ip))?;
        let ip = self.turns.remove(at)?;
        let mine = self.waiting.get_mut(&ip)?;
        let job = mine.pop_front()?;
        if mine.is_empty() {
            self.waiting.remove(&ip);
        } else {
            // Its next line waits for every other address's turn.
            self.turns.push_back(ip);
        }
        self.running.insert(ip);
        self.count -= 1;
        Some((ip, job))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: Duration = Duration::from_millis(1);

    fn ip(n: u8) -> IpAddr {
        IpAddr::from([127, 0, 0, n])
    }

    #[test]
    fn addresses_take_turns_and_one_runs_one_line_at_a_time() {
        let fair = Fair::new(10, 3);
        for k in 0..3 {
            fair.push(ip(2), format!("heavy {k}")).unwrap();
        }
        fair.push(ip(1), "cheap".to_string()).unwrap();
        assert_eq!(fair.next(NOW), Some((ip(2), "heavy 0".into())));
        // 127.0.0.2 has a line being resolved: the next worker takes 1's.
        assert_eq!(fair.next(NOW), Some((ip(1), "cheap".into())));
        assert_eq!(fair.next(NOW), None);
        fair.done(ip(2));
        assert_eq!(fair.next(NOW), Some((ip(2), "heavy 1".into())));
    }

    #[test]
    fn a_full_address_is_refused_alone() {
        let fair = Fair::new(3, 2);
        fair.push(ip(2), 1).unwrap();
        fair.push(ip(2), 2).unwrap();
        assert_eq!(fair.push(ip(2), 3), Err((Full::Address, 3)));
        fair.push(ip(1), 4).unwrap();
        assert_eq!(fair.push(ip(3), 5), Err((Full::Desk, 5)));
        let (who, _) = fair.next(NOW).unwrap();
        fair.done(who);
        assert!(fair.push(ip(3), 6).is_ok());
    }
}
