//! Tests of experiment 2b (a starved worker pool): configuration, results, ways of waiting.

use super::*;
use crate::experiments::Config;
use crate::experiments::JobMode;

#[test]
fn expected_shapes_follow_the_article() {
    let pool = PoolConfig {
        workers: 4,
        jobs: 40,
        wait_ms: 250,
    };
    assert_eq!(pool.expected_batch_ms(JobMode::Blocking), 2500.0);
    assert_eq!(pool.expected_batch_ms(JobMode::Async), 250.0);
    // The article: 200 items x 1 s on 10 threads would take 20 s blocking.
    let article = PoolConfig {
        workers: 10,
        jobs: 200,
        wait_ms: 1000,
    };
    assert_eq!(article.expected_batch_ms(JobMode::Blocking), 20_000.0);
    let uneven = PoolConfig {
        workers: 3,
        jobs: 7,
        wait_ms: 100,
    };
    assert_eq!(uneven.expected_batch_ms(JobMode::Blocking), 300.0);
    assert_eq!(
        (0..7).map(|j| uneven.worker_for(j)).collect::<Vec<_>>(),
        [0, 1, 2, 0, 1, 2, 0]
    );
}

#[test]
fn defaults_follow_the_cores() {
    assert_eq!(PoolConfig::for_cores(8).workers, 4);
    assert_eq!(PoolConfig::for_cores(2).workers, 2);
    assert_eq!(PoolConfig::for_cores(0).workers, 1);
}
