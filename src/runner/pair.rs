//! Two workers that take turns (experiments 4, 6 and 9): a setter, which
//! raises a flag after each round's delay (or produces items), and a
//! waiter, which notices it and stamps how long after (or consumes them). They share the run's memory where the page
//! has it, and the skew between their clocks is measured first.

use super::Reporter;
use futures::future::{Either, select, try_join};
use waitlab_browser::memory::{self, Slots};
use waitlab_browser::{wait, worker_host::ProbeWorker};
use waitlab_core::clock::skew_ms;
use waitlab_core::experiments::Way;
use waitlab_core::experiments::paired::{Paired, Rounds};
use waitlab_core::key;
use waitlab_core::outcome::reason;
use waitlab_core::outcome::{Outcome, StrategyOutcome};
use waitlab_core::protocol::{FromWorker, ToWorker, shared_slots};
use waitlab_core::text::{Key, Phrase};

/// Ping-pong exchanges for the skew estimate.
const SKEW_EXCHANGES: u32 = 32;

/// The setter and the waiter of one run.
pub(crate) struct Pair {
    setter: ProbeWorker,
    waiter: ProbeWorker,
    /// The run's shared memory, or why the page has none.
    pub(crate) slots: Result<Slots, &'static str>,
    /// The setter's clock against the waiter's, ms, where it could be
    /// measured (with shared memory).
    pub(crate) skew_ms: Option<f64>,
    /// What the run says when the pair takes too long (a catalog key with
    /// a `{seconds}` count).
    too_slow: Key,
    /// What the run calls the setter in an error.
    setter_role: Key,
}

/// What a run calls its pair: in its progress while they start, in an
/// error when the setter says something unexpected, and when the pair
/// takes too long (a catalog key with a `{seconds}` count).
pub(crate) struct Roles {
    pub(crate) starting: Key,
    pub(crate) setter: Key,
    pub(crate) too_slow: Key,
}

impl Roles {
    /// A setter and a waiter (experiments 4 and 6).
    pub(crate) fn setter_and_waiter(too_slow: Key) -> Roles {
        Roles {
            starting: key!("progress.starting_pair"),
            setter: key!("role.setter"),
            too_slow,
        }
    }
}

/// How a run treats each of its ways of waiting `W`.
pub(crate) struct Ways<W> {
    /// Whether it needs shared memory (it cannot run without).
    pub(crate) needs_memory: fn(W) -> bool,
    /// Why it cannot run here otherwise (a browser feature it lacks), if
    /// it cannot.
    pub(crate) missing: fn(W) -> Option<&'static str>,
    /// Whether it signals by message (and so needs a fresh port).
    pub(crate) by_message: fn(W) -> bool,
}

impl Pair {
    /// A paired experiment's results: each of `ways` measured `measure`
    /// in turn ([`Pair::each`]), a round of progress per round.
    pub(crate) async fn paired<C: Rounds + Clone, S: Way>(
        &mut self,
        config: &C,
        reporter: &Reporter,
        (ways, rules): (&[S], Ways<S>),
        mut measure: impl AsyncFnMut(&mut Pair, S) -> Result<Outcome, Phrase>,
    ) -> Result<Paired<C, S>, Phrase> {
        let without = |strategy, outcome| StrategyOutcome { strategy, outcome };
        let results = self
            .each(
                reporter,
                ways,
                config.rounds(),
                rules,
                without,
                async |pair, strategy| {
                    let outcome = measure(pair, strategy).await?;
                    Ok(StrategyOutcome { strategy, outcome })
                },
            )
            .await?;
        Ok(Paired {
            config: config.clone(),
            skew_ms: self.skew_ms,
            results,
            own: None,
        })
    }

    /// Measures each of `ways` in turn with `measure`, named in the
    /// progress, and counts `units` of progress after each. A way that
    /// cannot run here gives its result `without` it; one that signals by
    /// message gets a fresh port first.
    pub(crate) async fn each<W: Way, T>(
        &mut self,
        reporter: &Reporter,
        ways: &[W],
        units: u32,
        rules: Ways<W>,
        without: fn(W, Outcome) -> T,
        mut measure: impl AsyncFnMut(&mut Pair, W) -> Result<T, Phrase>,
    ) -> Result<Vec<T>, Phrase> {
        let mut results = Vec::with_capacity(ways.len());
        for &way in ways {
            reporter.update(|p| p.worker = Some(way.label()));
            let lacks_memory = self
                .slots
                .as_ref()
                .err()
                .filter(|_| (rules.needs_memory)(way));
            let result = match lacks_memory.copied().or_else(|| (rules.missing)(way)) {
                Some(reason) => without(
                    way,
                    Outcome::Unavailable {
                        reason: reason.to_owned(),
                    },
                ),
                None => {
                    if (rules.by_message)(way) {
                        self.connect()?;
                    }
                    measure(self, way).await?
                }
            };
            results.push(result);
            reporter.update(|p| p.done += units);
        }
        Ok(results)
    }

    /// Starts both workers, shares the memory with them and measures the
    /// skew between their clocks.
    pub(crate) async fn start(reporter: &Reporter, roles: Roles) -> Result<Pair, Phrase> {
        let slots = memory::new_shared_i32(shared_slots::LEN).map(Slots::new);
        reporter.update(|p| p.worker = Some(Phrase::new(roles.starting)));
        let (setter, mut waiter) = try_join(ProbeWorker::start(), ProbeWorker::start()).await?;
        // The waiter's flows come from the setter (on its clock, once the
        // skew is known).
        waiter.set_peer(setter.thread(), 0.0);
        let mut pair = Pair {
            setter,
            waiter,
            slots,
            skew_ms: None,
            too_slow: roles.too_slow,
            setter_role: roles.setter,
        };
        if let Ok(slots) = &pair.slots {
            pair.setter.share(slots.ints())?;
            pair.waiter.share(slots.ints())?;
            let exchanges = SKEW_EXCHANGES;
            let set = ToWorker::SkewPong { exchanges };
            let ping = ToWorker::SkewPing { exchanges };
            match pair.turn(&set, &ping, 10_000).await? {
                FromWorker::SkewDone { result } => {
                    let skew = skew_ms(&result.map_err(|e| reason::phrase(&e))?);
                    pair.skew_ms = Some(skew);
                    pair.waiter.set_peer(pair.setter.thread(), skew);
                }
                other => return Err(super::unexpected(key!("role.waiter"), &other)),
            }
        }
        Ok(pair)
    }

    /// Hands the two a fresh `MessageChannel`, one port each, for a
    /// strategy that signals by message.
    pub(crate) fn connect(&self) -> Result<(), Phrase> {
        let channel = web_sys::MessageChannel::new()
            .map_err(|e| Phrase::written(waitlab_browser::js_error_message(&e)))?;
        self.waiter.share_port(&channel.port1())?;
        self.setter.share_port(&channel.port2())
    }

    /// One turn: `set` to the setter, `wait` to the waiter, and the
    /// waiter's reply once the setter has said it is done, within
    /// `limit_ms`. The flag and the round counter start at zero, and the
    /// page has drawn its progress before the turn starts, not while the
    /// workers measure.
    pub(crate) async fn turn(
        &mut self,
        set: &ToWorker,
        wait: &ToWorker,
        limit_ms: u32,
    ) -> Result<FromWorker, Phrase> {
        wait::let_page_render().await;
        if let Ok(slots) = &self.slots {
            slots.store_and_notify(shared_slots::FLAG, 0);
            slots.store_and_notify(shared_slots::GO, 0);
        }
        self.setter.send(set)?;
        self.waiter.send(wait)?;
        let (waiter, setter) = (&mut self.waiter, &mut self.setter);
        let both = Box::pin(async {
            let w = waiter.next().await?;
            let s = setter.next().await?;
            Ok::<_, Phrase>((w, s))
        });
        let (reply, setter_reply) = match select(both, Box::pin(wait::timeout(limit_ms))).await {
            Either::Left((result, _)) => result?,
            Either::Right(_) => {
                return Err(Phrase::new(self.too_slow).count("seconds", limit_ms / 1000));
            }
        };
        match setter_reply {
            FromWorker::SetterDone { result } => result.map_err(|e| reason::phrase(&e))?,
            other => return Err(super::unexpected(self.setter_role, &other)),
        }
        Ok(reply)
    }

    /// One strategy's outcome: a [`Pair::turn`], then the waiter's times,
    /// each of its raw times and the skew made one by `correct`.
    pub(crate) async fn measure(
        &mut self,
        set: &ToWorker,
        wait: &ToWorker,
        limit_ms: u32,
        correct: impl Fn(f64, f64) -> f64,
    ) -> Result<Outcome, Phrase> {
        match self.turn(set, wait, limit_ms).await? {
            FromWorker::WakeDone { result } => {
                let skew = self.skew_ms.unwrap_or(0.0);
                let raw = result.map_err(|e| reason::phrase(&e))?;
                Ok(Outcome::of_samples(
                    raw.into_iter().map(|raw| correct(raw, skew)).collect(),
                ))
            }
            other => Err(super::unexpected(key!("role.waiter"), &other)),
        }
    }
}
