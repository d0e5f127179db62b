fn main() {
    let pos = kroon::board::Position::initial();
    let d: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(6);
    for depth in 1..=d {
        let t = std::time::Instant::now();
        let n = kroon::board::perft::perft(&pos, depth);
        println!("{depth} {n} {:.3}", t.elapsed().as_secs_f64());
    }
}
