//! The search through the engine facade: tactics, terminal positions, draws, limits,
//! stop and ponder, reproducibility.

mod common;

use common::SLACK;
use kroon::board::movegen::{has_capture, legal_moves};
use kroon::board::notation::pdn_move;
use kroon::engine::{Engine, EngineOptions, GoMode, Info, Score, TimeControl};
use kroon::game::Game;
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

fn engine() -> Engine {
    Engine::new(EngineOptions {
        threads: 1,
        hash_mb: 16,
    })
}

/// Positions with one winning shot: a sacrifice (the move offers a capture) after
/// which the side to move wins at least two men by force. Each was found in random
/// play and checked by an exhaustive material-only search (7 plies plus captures):
/// the given move wins 2-3 men, every other move wins nothing.
const SHOTS: [(&str, &str); 9] = [
    ("W:W26,27,32,35,37,38,39,40,41,42,43,45,46,47,48,49,50:B1,2,3,5,6,7,8,9,10,11,12,15,16,17,18,20,29", "26-21"),
    ("W:W32,34,35,36,37,38,40,41,42,43,44,45,46,47,48,49:B1,2,3,4,5,6,8,9,10,12,14,15,16,21,23,24", "32-27"),
    ("B:W16,30,31,33,35,36,39,40,43,45,47,50:B2,3,4,5,6,7,10,13,15,19,20,22", "22-27"),
    ("W:W30,32,35,36,38,39,40,41,42,44,45,46,47,48,49,50:B1,2,3,4,5,7,8,10,11,13,14,15,16,19,22,24", "32-28"),
    ("W:W31,32,33,34,35,36,37,38,40,44,45,46,47,48,49,50:B1,2,4,5,6,9,10,11,12,13,14,16,20,22,23,25", "34-30"),
    ("B:W15,32,33,34,36,37,40,41,42,44,46,47,48:B1,2,3,5,6,7,8,9,12,14,16,21,23", "23-29"),
    ("B:W27,28,30,37,38,39,40,41,42,43,44,45,46,48,49,50:B1,2,3,4,5,6,9,10,12,14,15,16,18,19,20,26", "19-24"),
    ("W:W24,27,31,36,37,40,42,43,44,46,47,48,50:B1,2,3,5,6,7,8,9,10,11,12,16,18", "27-21"),
    ("B:W26,28,31,34,35,36,38,39,40,41,42,43,46,47,48,49:B1,2,3,4,5,6,7,8,11,14,16,17,18,19,20,24", "17-21"),
];

#[test]
fn finds_the_winning_shots() {
    find_the_shots(&mut engine());
}

#[test]
fn finds_the_winning_shots_with_threads_sharing_the_nodes() {
    find_the_shots(&mut Engine::new(EngineOptions {
        threads: 3,
        hash_mb: 16,
    }));
}

fn find_the_shots(engine: &mut Engine) {
    for (fen, expected) in SHOTS {
        let game = Game::from_fen(fen).unwrap();
        engine.new_game();
        let result = engine.search_blocking(&game, TimeControl::Depth(9));
        let mv = result.best_move.expect("a move");
        assert_eq!(
            pdn_move(game.position(), mv),
            expected,
            "{fen}: score {}",
            result.score
        );
        assert!(
            result.score.0 >= 80,
            "{fen}: the shot should win material, score {}",
            result.score
        );
    }
}

#[test]
fn no_legal_move_gives_no_move() {
    let mut engine = engine();
    // White's man on 46 is blocked by 41 and cannot take it (37 is occupied).
    let game = Game::from_fen("W:W46:B37,41").unwrap();
    for mode in [GoMode::Think, GoMode::Analyze] {
        engine.go(&game, TimeControl::Depth(5), mode, |_| {}, |_| {});
        let result = engine.wait();
        assert_eq!(result.best_move, None);
        assert_eq!(result.score, Score::loss_in(0));
    }
}

#[test]
fn a_single_legal_move_is_played_at_once_but_analysed_on_request() {
    let mut engine = engine();
    let mut game = Game::new();
    game.play_text("32-28").unwrap();
    game.play_text("19-23").unwrap();
    let result = engine.search_blocking(&game, TimeControl::Depth(30));
    assert_eq!(result.depth, 0);
    assert_eq!(
        pdn_move(game.position(), result.best_move.unwrap()),
        "28x19"
    );
    engine.go(
        &game,
        TimeControl::Depth(6),
        GoMode::Analyze,
        |_| {},
        |_| {},
    );
    let result = engine.wait();
    assert_eq!(result.depth, 6);
    assert_eq!(
        pdn_move(game.position(), result.best_move.unwrap()),
        "28x19"
    );
}

#[test]
fn finds_a_forced_win_and_scores_it_as_such() {
    let mut engine = engine();
    // White's king takes Black's last piece: 46 over 23 (nothing between) lands on 19 or beyond.
    let game = Game::from_fen("W:WK46:B23").unwrap();
    let result = engine.search_blocking(&game, TimeControl::Depth(4));
    assert_eq!(result.score, Score::win_in(1));
}

#[test]
fn the_five_move_rule_draws_inside_the_search() {
    let mut engine = engine();
    // Two kings against a king: the 5-move rule draws after 10 plies. Play 8 of them,
    // each side's first move that leaves the other nothing to take (a search may give
    // a king away, which the evaluation scores near a draw: the rule would not count);
    // every line then ends in that draw, or leaves the rule's material by giving a
    // king away: one king against one, which the evaluation (no tables here) scores
    // near zero but not at zero, a few hundredths either way by the side to move
    // (with the tuned margins the depth-10 search prefers that line at +0.07).
    let mut game = Game::from_fen("W:WK47,K49:BK46").unwrap();
    for _ in 0..8 {
        let pos = *game.position();
        let safe = legal_moves(&pos)
            .into_iter()
            .find(|&m| !has_capture(&pos.play(m)))
            .expect("a move that gives nothing away");
        game.play(safe).unwrap();
    }
    assert_eq!(game.position().pieces(kroon::board::Side::White).count(), 2);
    assert_eq!(game.position().pieces(kroon::board::Side::Black).count(), 1);
    engine.go(
        &game,
        TimeControl::Depth(10),
        GoMode::Analyze,
        |_| {},
        |_| {},
    );
    let result = engine.wait();
    let gives_a_king_away = result.pv.iter().any(|m| m.is_capture());
    if gives_a_king_away {
        assert!(
            result.score.0.abs() < 20,
            "{:?} pv {:?}",
            result.score,
            result.pv
        );
    } else {
        assert_eq!(result.score, Score::DRAW, "pv {:?}", result.pv);
    }
}

#[test]
fn node_limited_searches_are_reproducible() {
    let run = |engine: &mut Engine| {
        let infos = Arc::new(Mutex::new(Vec::<(u32, Score, u64, usize)>::new()));
        let sink = Arc::clone(&infos);
        engine.new_game();
        engine.go(
            &Game::new(),
            TimeControl::Nodes(300_000),
            GoMode::Think,
            move |i: &Info| {
                sink.lock()
                    .unwrap()
                    .push((i.depth, i.score, i.nodes, i.pv.len()));
            },
            |_| {},
        );
        let result = engine.wait();
        let infos = infos.lock().unwrap().clone();
        (
            result.best_move,
            result.score,
            result.nodes,
            result.pv,
            infos,
        )
    };
    let mut engine = engine();
    let first = run(&mut engine);
    let second = run(&mut engine);
    assert_eq!(first, second);
    assert!(first.2 >= 300_000 && first.2 < 302_000, "nodes {}", first.2);
    let mut other = self::engine();
    assert_eq!(run(&mut other), first);
}

/// A front end that starts a search while another still runs (Hub `go` after
/// `go`) must tell the end of the one it waits for from the end of the one the
/// engine stopped: each search has its number, and its end says it.
#[test]
fn each_search_ends_with_its_own_number() {
    let mut engine = engine();
    let (done, ended) = mpsc::channel();
    let on_done = |done: mpsc::Sender<_>| move |id| done.send(id).unwrap();
    let game = Game::new();
    let first = engine.go(
        &game,
        TimeControl::Infinite,
        GoMode::Analyze,
        |_| {},
        on_done(done.clone()),
    );
    let second = engine.go(
        &game,
        TimeControl::Depth(2),
        GoMode::Analyze,
        |_| {},
        on_done(done),
    );
    assert!(second > first, "{second:?} after {first:?}");
    assert!(engine.wait().best_move.is_some());
    let ends: Vec<_> = ended.iter().collect();
    assert_eq!(ends, [first, second], "the stopped search ends first");
}

#[test]
fn stop_ends_an_infinite_search_promptly() {
    let mut engine = Engine::new(EngineOptions {
        threads: 2,
        hash_mb: 16,
    });
    let reported: Arc<Mutex<Vec<Instant>>> = Arc::default();
    let log = Arc::clone(&reported);
    let (done, ended) = mpsc::channel();
    engine.go(
        &Game::new(),
        TimeControl::Infinite,
        GoMode::Analyze,
        move |_| log.lock().unwrap().push(Instant::now()),
        move |_| done.send(Instant::now()).unwrap(),
    );
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        ended.try_recv().is_err(),
        "an infinite search ended by itself"
    );
    let t = Instant::now();
    engine.stop();
    // The stop took effect by now; the test's thread may have waited for a core
    // between `t` and here, while the search reported iterations it completed.
    let stopped = Instant::now();
    let result = engine.wait();
    // Prompt: the iteration under way is dropped, not finished. No iteration may
    // complete after the stop (the few milliseconds allow for one that completed as
    // it came, and was reported just after). Timing the stop alone would not tell:
    // the suite runs its tests side by side on as few as two cores, where the
    // scheduler alone can take longer than the iteration would (a 100 ms bound
    // failed once so): the time bound below only tells a stop from a hang.
    let late = reported
        .lock()
        .unwrap()
        .iter()
        .filter(|&&at| at > stopped + Duration::from_millis(20))
        .count();
    assert_eq!(late, 0, "an iteration completed after the stop");
    assert!(t.elapsed() < SLACK, "stopped after {:?}", t.elapsed());
    assert!(result.best_move.is_some());
    assert!(result.depth >= 6);
    // The end was signalled, once, before `wait` returned.
    assert!(ended.try_recv().is_ok_and(|at| at >= t));
    assert!(ended.try_recv().is_err());
    // An idle stop and wait are harmless.
    engine.stop();
    assert_eq!(engine.wait().best_move, None);
}

#[test]
fn a_search_that_ends_by_itself_says_so() {
    // Front ends wait for this signal instead of polling the engine.
    let mut engine = engine();
    let (done, ended) = mpsc::channel();
    engine.go(
        &Game::new(),
        TimeControl::Depth(8),
        GoMode::Think,
        |_| {},
        move |_| {
            done.send(()).unwrap();
        },
    );
    ended
        .recv_timeout(Duration::from_secs(60))
        .expect("the end of the search is signalled");
    assert_eq!(engine.wait().depth, 8);
}

#[test]
fn move_time_is_kept() {
    let mut engine = engine();
    let t = Instant::now();
    let result = engine.search_blocking(
        &Game::new(),
        TimeControl::MoveTime(Duration::from_millis(250)),
    );
    let took = t.elapsed();
    // It stops at its time, not at a depth: a busy machine may add SLACK (the
    // search thread waits for a core), but never makes it stop early.
    assert!(took <= Duration::from_millis(250) + SLACK, "took {took:?}");
    assert!(took >= Duration::from_millis(100), "took {took:?}");
    assert!(result.best_move.is_some());
}

#[test]
fn ponder_runs_without_a_clock_until_ponder_hit() {
    let mut engine = engine();
    let limit = TimeControl::Clock {
        time: Duration::from_millis(600),
        increment: Duration::ZERO,
        moves: None,
    };
    let (done, ended) = mpsc::channel();
    engine.go(
        &Game::new(),
        limit,
        GoMode::Ponder,
        |_| {},
        move |_| {
            done.send(()).unwrap();
        },
    );
    std::thread::sleep(Duration::from_millis(400));
    assert!(
        ended.try_recv().is_err(),
        "a ponder search ignores the clock"
    );
    let t = Instant::now();
    engine.ponder_hit();
    let result = engine.wait();
    // Its clock, which had not run while pondering, ends it: within the 600 ms
    // left and what a busy machine adds.
    assert!(
        t.elapsed() < Duration::from_millis(600) + SLACK,
        "after ponder-hit: {:?}",
        t.elapsed()
    );
    assert!(result.best_move.is_some());
}

/// A fast game against itself on a real clock, with increment: neither side may run
/// out of time, and every move must be legal.
#[test]
fn a_clock_game_keeps_time_in_hand() {
    let increment = Duration::from_millis(20);
    let mut clocks = [Duration::from_millis(1500); 2];
    let mut engines = [engine(), engine()];
    let mut game = Game::new();
    for ply in 0..70 {
        if game.is_over() {
            break;
        }
        let side = ply % 2;
        let limit = TimeControl::Clock {
            time: clocks[side],
            increment,
            moves: None,
        };
        clocks[side] += increment;
        let t = Instant::now();
        let result = engines[side].search_blocking(&game, limit);
        let used = t.elapsed();
        assert!(
            used < clocks[side],
            "ply {ply}: used {used:?} of {:?}",
            clocks[side]
        );
        clocks[side] -= used;
        game.play(result.best_move.expect("the game is not over"))
            .unwrap();
    }
    assert!(
        clocks.iter().all(|c| *c > Duration::from_millis(100)),
        "{clocks:?}"
    );
}

#[test]
fn the_thread_count_can_change_between_searches() {
    // The search threads outlive a search; a new count must replace them, also
    // while a search on the old ones is under way.
    let mut engine = engine();
    let game = Game::from_fen(kroon::bench::POSITIONS[4]).unwrap();
    for threads in [2, 1, 4, 2, 2] {
        engine.go(
            &game,
            TimeControl::Infinite,
            GoMode::Analyze,
            |_| {},
            |_| {},
        );
        engine.set_threads(threads);
        std::thread::sleep(Duration::from_millis(20));
        engine.stop();
        assert!(engine.wait().best_move.is_some(), "{threads} threads");
        let result = engine.search_blocking(&game, TimeControl::Depth(10));
        assert_eq!(result.depth, 10, "{threads} threads");
        assert!(game.legal_moves().contains(&result.best_move.unwrap()));
    }
}

#[test]
fn threads_report_every_depth_and_a_playable_principal_variation() {
    // Helpers search moves of the split points, PV nodes included: the PV they
    // find must come back whole and legal, and every iteration be reported once.
    let mut engine = Engine::new(EngineOptions {
        threads: 2,
        hash_mb: 16,
    });
    for fen in kroon::bench::POSITIONS {
        let game = Game::from_fen(fen).unwrap();
        engine.new_game();
        let infos = Arc::new(Mutex::new(Vec::<Info>::new()));
        let sink = Arc::clone(&infos);
        engine.go(
            &game,
            TimeControl::Depth(12),
            GoMode::Analyze,
            move |i: &Info| sink.lock().unwrap().push(i.clone()),
            |_| {},
        );
        let result = engine.wait();
        let infos = infos.lock().unwrap();
        let depths: Vec<u32> = infos.iter().map(|i| i.depth).collect();
        assert_eq!(depths, (1..=12).collect::<Vec<_>>(), "{fen}");
        let last = infos.last().unwrap();
        assert_eq!((last.score, &last.pv), (result.score, &result.pv), "{fen}");
        assert_eq!(result.pv.first(), result.best_move.as_ref(), "{fen}");
        for info in infos.iter() {
            let mut line = game.clone();
            for &mv in &info.pv {
                line.play_on(mv)
                    .unwrap_or_else(|e| panic!("{fen} depth {}: {e}", info.depth));
            }
        }
    }
}

#[test]
fn a_stopped_iteration_plays_the_move_it_already_proved_better() {
    // Where depth d and depth d+1 choose different moves, stop a search shortly
    // before it completes depth d+1 (a node limit stops one thread at the same
    // point every time). Where it has proved another move better by then, it must
    // play that move although its last completed depth is d, which chose the old
    // one: a search that played its last completed depth's move never would.
    let search = |game: &Game, limit: TimeControl| {
        let mut engine = engine();
        engine.go(game, limit, GoMode::Think, |_| {}, |_| {});
        engine.wait()
    };
    let mut played_unfinished = 0;
    // The bench positions, and the first middle games of benches/middlegame.fen: how
    // often a best move changes between depths depends on the evaluation's weights.
    let middle_games = include_str!("../benches/middlegame.fen")
        .lines()
        .map(|l| l.split(';').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take(12);
    for fen in kroon::bench::POSITIONS.iter().copied().chain(middle_games) {
        let game = Game::from_fen(fen).unwrap();
        let mut previous = search(&game, TimeControl::Depth(3));
        for depth in 4..=11 {
            let next = search(&game, TimeControl::Depth(depth));
            if next.best_move != previous.best_move && next.nodes > previous.nodes + 3000 {
                let stopped = search(&game, TimeControl::Nodes(next.nodes - 1500));
                assert_eq!(stopped.depth, depth - 1, "{fen}");
                assert_eq!(stopped.pv.first(), stopped.best_move.as_ref(), "{fen}");
                if stopped.best_move != previous.best_move {
                    played_unfinished += 1;
                }
            }
            previous = next;
        }
    }
    assert!(
        played_unfinished >= 2,
        "only {played_unfinished} stopped searches played the newly proved move"
    );
}

#[test]
fn a_network_keeps_its_first_layer_right_with_threads_sharing_the_nodes() {
    // The tests' builds assert at every evaluation that the first layer kept along
    // the path scores as the full refresh does; a thread that helps at a split
    // point starts its path there, in the middle of another thread's.
    use kroon::eval::{network::testing::busy_network, Evaluator};
    let mut engine = Engine::new(EngineOptions {
        threads: 2,
        hash_mb: 16,
    });
    engine.set_evaluator(Evaluator::Network(Arc::new(busy_network(13, 64))));
    for fen in &kroon::bench::POSITIONS[..6] {
        let game = Game::from_fen(fen).unwrap();
        engine.new_game();
        let result = engine.search_blocking(&game, TimeControl::Depth(10));
        assert!(game.legal_moves().contains(&result.best_move.unwrap()));
    }
}
