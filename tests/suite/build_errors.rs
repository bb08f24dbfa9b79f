//! Building a checked game with option values that break it gives a typed error,
//! whose message names what went wrong.

use rulesi::engine::compile::options::resolve;
use rulesi::engine::{BuildError, build};

fn build_with(path: &str, settings: &[(&str, &str)]) -> Result<(), BuildError> {
    let text = std::fs::read_to_string(path).expect("the test game is readable");
    let checked = rulesi::check_source(&text);
    let model = checked.model.expect("the test game checks");
    let settings: Vec<(String, String)> = settings.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let values = resolve(&model, None, &settings).expect("the settings name the game's options");
    build(&model, &values).map(|_| ())
}

#[test]
fn a_cell_the_options_leave_off_the_board_is_named() {
    let path = "tests/build/cell-off-board.game";
    assert_eq!(build_with(path, &[]), Ok(()));
    let err = build_with(path, &[("size", "5")]).expect_err("h8 is not on a 5 by 5 board");
    assert_eq!(err, BuildError::NoCell { label: "h8".into() });
    assert_eq!(err.to_string(), "there is no cell h8 on this board (with these options)");
}
