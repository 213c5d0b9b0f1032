use engine::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let fen = &args[1];
    let depth: i32 = args[2].parse().unwrap();
    let mut config = SearchConfig::fischerle();
    for kv in &args[3..] {
        match kv.as_str() {
            "pvs" => config.pvs = true,
            "nm" => {
                config.null_move = Some(config::NullMove {
                    base: 2,
                    divisor: 4,
                })
            }
            "asp" => {
                config.aspiration = Some(config::Aspiration {
                    window: 30,
                    min_depth: 3,
                })
            }
            "chk" => config.check_extension = true,
            "notrivdyn" => {
                config.selective.candidate_limit = 0;
                config.selective.triv_dyn_levels = 4;
            }
            "nott" => config.tt = None,
            _ => panic!("{kv}"),
        }
    }
    let pos = Position::from_fen(fen).unwrap();
    let r = Searcher::new(config).search(&pos, Limits::depth(depth), |it| {
        println!(
            "d{} n{} {} {} {:?}",
            it.depth, it.nodes, it.best_move, it.score, it.pv
        )
    });
    println!(
        "best {:?} score {} maxext {} nodes {}",
        r.best_move, r.score, r.stats.max_extension, r.stats.nodes
    );
}
