//! Tests of the game configuration: defaults, validation, names.

use super::*;

#[test]
fn defaults_are_valid_and_resolve_handling() {
    for rs in [RuleSet::Freestyle, RuleSet::Gomoku, RuleSet::Renju] {
        let c = GameConfig::new(rs);
        assert_eq!(c.validate(), Ok(()), "{rs}");
        assert_eq!(c.forbidden_handling().is_some(), rs == RuleSet::Renju);
    }
    assert_eq!(
        GameConfig::new(RuleSet::Gomoku).opening,
        Opening::SwapAfterThree
    );
    assert_eq!(
        GameConfig::new(RuleSet::Renju).forbidden_handling(),
        Some(ForbiddenHandling::Claim)
    );
    assert_eq!(
        GameConfig::new(RuleSet::Renju)
            .with_forbidden(ForbiddenHandling::Block)
            .forbidden_handling(),
        Some(ForbiddenHandling::Block)
    );
}

#[test]
fn validation_refuses_each_bad_field() {
    let fs = GameConfig::new(RuleSet::Freestyle);
    assert_eq!(fs.clone().with_size(19).validate(), Ok(()));
    assert!(matches!(
        fs.clone().with_size(17).validate(),
        Err(ConfigError::BoardSize { size: 17, .. })
    ));
    for rs in [RuleSet::Gomoku, RuleSet::Renju] {
        assert!(matches!(
            GameConfig::new(rs).with_size(19).validate(),
            Err(ConfigError::BoardSize { .. })
        ));
    }
    assert!(matches!(
        GameConfig::new(RuleSet::Renju)
            .with_opening(Opening::SwapAfterThree)
            .validate(),
        Err(ConfigError::Opening { .. })
    ));
    assert_eq!(
        fs.clone()
            .with_forbidden(ForbiddenHandling::Lose)
            .validate(),
        Err(ConfigError::ForbiddenHandlingWithoutForbiddenMoves(
            RuleSet::Freestyle
        ))
    );
    let t = |time| fs.clone().with_time(time).validate();
    assert_eq!(
        t(TimeControl::SuddenDeath { main_ms: 0 }),
        Err(ConfigError::ZeroMainTime)
    );
    assert_eq!(
        t(TimeControl::Fischer {
            main_ms: 0,
            increment_ms: 5
        }),
        Err(ConfigError::ZeroMainTime)
    );
    let byo = |periods, period_ms, moves_per_period| TimeControl::ByoYomi {
        main_ms: 0,
        periods,
        period_ms,
        moves_per_period,
    };
    assert_eq!(
        t(byo(1, 1000, 1)),
        Ok(()),
        "byo-yomi without main time is fine"
    );
    assert_eq!(t(byo(0, 1000, 1)), Err(ConfigError::ZeroPeriods));
    assert_eq!(t(byo(1, 0, 1)), Err(ConfigError::ZeroPeriodTime));
    assert_eq!(t(byo(1, 1000, 0)), Err(ConfigError::ZeroMovesPerPeriod));
    let d = |max_offers, answer_ms| {
        fs.clone()
            .with_draw(DrawPolicy {
                max_offers,
                answer_ms,
            })
            .validate()
    };
    assert_eq!(d(Some(0), None), Err(ConfigError::ZeroOfferCap));
    assert_eq!(d(None, Some(0)), Err(ConfigError::ZeroAnswerTime));
    assert_eq!(d(Some(2), Some(30_000)), Ok(()));
}

#[test]
fn serde_form_is_snake_case_and_defaults_apply() {
    let c = GameConfig::new(RuleSet::Renju).with_time(TimeControl::ByoYomi {
        main_ms: 60_000,
        periods: 3,
        period_ms: 30_000,
        moves_per_period: 1,
    });
    let j = serde_json::to_value(&c).unwrap();
    assert_eq!(j["rule_set"], "renju");
    assert_eq!(j["opening"], "free");
    assert_eq!(j["time"]["kind"], "byo_yomi");
    let minimal: GameConfig = serde_json::from_str(
        r#"{"rule_set":"gomoku","opening":"swap_after_three","board_size":15,
            "time":{"kind":"byo_yomi","main_ms":0,"periods":2,"period_ms":10000}}"#,
    )
    .unwrap();
    assert_eq!(minimal.lag_credit_cap_ms, DEFAULT_LAG_CREDIT_CAP_MS);
    assert_eq!(minimal.draw, DrawPolicy::default());
    assert!(matches!(
        minimal.time,
        TimeControl::ByoYomi {
            moves_per_period: 1,
            ..
        }
    ));
    assert_eq!("Renju".parse::<RuleSet>(), Ok(RuleSet::Renju));
    assert!("rif".parse::<RuleSet>().is_err());
}
