//! Checks of the tallies and documents (`crate::study`): additions applied
//! once per token, lists newest first and cut, documents written only at
//! the version expected, scored indexes read by range, concurrent writers,
//! and the family's export and import.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::helpers::{expect_err, ok, same};
use crate::{CountAdd, DocPut, ListPush, ScorePut, Store, StudyItem, Tally};

fn add(key: &[u8], field: u32, values: &[i64]) -> CountAdd {
    CountAdd {
        key: key.to_vec(),
        field,
        values: values.to_vec(),
    }
}

fn push(key: &[u8], item: &[u8]) -> ListPush {
    ListPush {
        key: key.to_vec(),
        item: item.to_vec(),
    }
}

fn tally(token: &str, counts: Vec<CountAdd>, pushes: Vec<ListPush>, keep: u32) -> Tally {
    Tally {
        token: token.to_owned(),
        counts,
        pushes,
        keep,
    }
}

fn put(key: &str, expect: u64, value: &[u8]) -> DocPut {
    DocPut {
        key: key.to_owned(),
        expect,
        value: value.to_vec(),
    }
}

fn score(index: &str, member: &str, score: Option<i64>) -> ScorePut {
    ScorePut {
        index: index.to_owned(),
        member: member.to_owned(),
        score,
    }
}

/// A tally adds element-wise (lengthening shorter lists), its lists keep
/// the newest first, cut to `keep`; the same token again changes nothing;
/// keys and spaces are apart; binary keys and items come back as stored.
pub async fn tallies(store: Arc<dyn Store>) {
    let s = &*store;
    let k1: &[u8] = &[0, 255, 7];
    let k2: &[u8] = b"two";
    same(
        ok(s.tallies("ex", &[k1.to_vec()]).await, "nothing yet"),
        vec![vec![]],
        "an unknown key has no counters",
    );
    let first = tally(
        "g1",
        vec![add(k1, 5, &[1, 0, 2]), add(k1, 2, &[7]), add(k2, 5, &[1])],
        vec![push(k1, &[0, 1, 255]), push(k2, b"b")],
        3,
    );
    same(ok(s.tally("ex", &first).await, "tally g1"), true, "applied");
    same(
        ok(s.tally("ex", &first).await, "tally g1 again"),
        false,
        "a token is applied once",
    );
    let big = 1i64 << 40;
    let second = tally(
        "g2",
        vec![add(k1, 5, &[1, 1, -1, big]), add(k1, 2, &[3])],
        vec![push(k1, b"2"), push(k1, b"3"), push(k1, b"4")],
        3,
    );
    same(
        ok(s.tally("ex", &second).await, "tally g2"),
        true,
        "applied",
    );
    same(
        ok(
            s.tallies("ex", &[k1.to_vec(), k2.to_vec(), b"none".to_vec()])
                .await,
            "read",
        ),
        vec![
            vec![(2, vec![10]), (5, vec![2, 1, 1, big])],
            vec![(5, vec![1])],
            vec![],
        ],
        "counters added element-wise, fields in order, in the keys' order",
    );
    same(
        ok(
            s.lists("ex", &[k1.to_vec(), k2.to_vec(), b"none".to_vec()])
                .await,
            "lists",
        ),
        vec![
            vec![b"4".to_vec(), b"3".to_vec(), b"2".to_vec()],
            vec![b"b".to_vec()],
            vec![],
        ],
        "newest first, the oldest cut",
    );
    // Another space holds its own.
    same(
        ok(s.tallies("other", &[k1.to_vec()]).await, "other space"),
        vec![vec![]],
        "spaces are apart",
    );
    ok(
        s.tally("other", &tally("g1", vec![add(k1, 1, &[9])], vec![], 1))
            .await,
        "the same token in another space",
    );
    same(
        ok(s.tallies("other", &[k1.to_vec()]).await, "other space"),
        vec![vec![(1, vec![9])]],
        "a token counts per space",
    );
    expect_err!(
        s.tally("Bad Space", &tally("t", vec![], vec![], 1)).await,
        Invalid,
        "a space name of other characters"
    );
}

/// Tallies of many writers at once all land, each once: the sums are
/// exact, and a token raced by two writers is applied by one.
pub async fn racing_tallies(store: Arc<dyn Store>) {
    let mut tasks = Vec::new();
    for w in 0..8u32 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let mut applied = 0;
            for n in 0..10u32 {
                let key = format!("k{}", n % 3).into_bytes();
                // Tokens t0..t39 are each raced by two writers.
                let token = format!("t{}", (w / 2) * 10 + n);
                let t = tally(
                    &token,
                    vec![add(&key, n % 2, &[1, i64::from(w)])],
                    vec![push(&key, token.as_bytes())],
                    50,
                );
                if ok(store.tally("race", &t).await, "a racing tally") {
                    applied += 1;
                }
            }
            applied
        }));
    }
    let mut applied = 0;
    for t in tasks {
        applied += t.await.expect("a writer panicked");
    }
    same(applied, 40, "each of 40 tokens applied once");
    let keys: Vec<Vec<u8>> = (0..3).map(|i| format!("k{i}").into_bytes()).collect();
    let rows = ok(store.tallies("race", &keys).await, "read");
    let games: i64 = rows.iter().flatten().map(|(_, v)| v[0]).sum();
    same(games, 40, "one count per applied token");
    let lists = ok(store.lists("race", &keys).await, "lists");
    same(
        lists.iter().map(Vec::len).sum::<usize>(),
        40,
        "one item per applied token",
    );
}

/// Documents: written at the version expected (0: absent), raised by one,
/// a stale version refused with nothing written (its scores neither), a
/// key twice refused; scored indexes by score then member, within bounds,
/// at most `limit`, a member moved or taken out.
pub async fn documents(store: Arc<dyn Store>) {
    let s = &*store;
    same(
        ok(s.docs("pz", &["a".into()]).await, "none"),
        vec![None],
        "unknown",
    );
    let bytes: Vec<u8> = (0..=255).collect();
    ok(
        s.put_docs(
            "pz",
            &[put("a", 0, &bytes), put("b", 0, b"bee")],
            &[
                score("rating", "a", Some(1500)),
                score("rating", "b", Some(-20)),
            ],
        )
        .await,
        "create a and b",
    );
    let got = ok(
        s.docs("pz", &["b".into(), "a".into(), "c".into()]).await,
        "read",
    );
    same(
        got[0].as_ref().map(|d| (d.version, d.value.clone())),
        Some((1, b"bee".to_vec())),
        "b",
    );
    same(
        got[1].as_ref().map(|d| (d.version, d.value.clone())),
        Some((1, bytes.clone())),
        "a, binary",
    );
    same(got[2].clone(), None, "c is absent");
    expect_err!(
        s.put_docs(
            "pz",
            &[put("a", 1, b"a2"), put("b", 0, b"b2")],
            &[score("rating", "a", Some(1))]
        )
        .await,
        Conflict,
        "b is not new"
    );
    same(
        ok(s.docs("pz", &["a".into()]).await, "read")[0]
            .as_ref()
            .map(|d| d.version),
        Some(1),
        "a conflict writes nothing",
    );
    expect_err!(
        s.put_docs("pz", &[put("c", 0, b"1"), put("c", 0, b"2")], &[])
            .await,
        Invalid,
        "a key twice in a batch"
    );
    ok(
        s.put_docs(
            "pz",
            &[put("a", 1, b"a2")],
            &[
                score("rating", "c", Some(1500)),
                score("rating", "d", Some(1700)),
            ],
        )
        .await,
        "update a",
    );
    same(
        ok(s.docs("pz", &["a".into()]).await, "read")[0]
            .clone()
            .map(|d| (d.version, d.value)),
        Some((2, b"a2".to_vec())),
        "a at version 2",
    );
    same(
        ok(
            s.scored("pz", "rating", i64::MIN, i64::MAX, 10).await,
            "all",
        ),
        vec![
            ("b".into(), -20),
            ("a".into(), 1500),
            ("c".into(), 1500),
            ("d".into(), 1700),
        ],
        "by score, then member",
    );
    same(
        ok(s.scored("pz", "rating", 1500, 1600, 10).await, "a band"),
        vec![("a".into(), 1500), ("c".into(), 1500)],
        "within the bounds, both included",
    );
    same(
        ok(s.scored("pz", "rating", 0, i64::MAX, 2).await, "limited"),
        vec![("a".into(), 1500), ("c".into(), 1500)],
        "at most the limit",
    );
    ok(
        s.put_docs(
            "pz",
            &[],
            &[score("rating", "a", Some(1800)), score("rating", "c", None)],
        )
        .await,
        "move a, take c out",
    );
    same(
        ok(s.scored("pz", "rating", 0, 2000, 10).await, "after"),
        vec![("d".into(), 1700), ("a".into(), 1800)],
        "a moved, c gone",
    );
    same(
        ok(s.scored("pz", "other", 0, 2000, 10).await, "another index"),
        vec![],
        "indexes are apart",
    );
}

/// Many writers raising one counter document by read, then write at the
/// version read (retrying on a conflict) lose no raise.
pub async fn racing_doc_puts(store: Arc<dyn Store>) {
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            for _ in 0..10 {
                loop {
                    let doc = ok(store.docs("cas", &["n".into()]).await, "read").remove(0);
                    let (version, n) = doc.map_or((0, 0u64), |d| {
                        (
                            d.version,
                            String::from_utf8(d.value).unwrap().parse().unwrap(),
                        )
                    });
                    let next = (n + 1).to_string();
                    match store
                        .put_docs("cas", &[put("n", version, next.as_bytes())], &[])
                        .await
                    {
                        Ok(()) => break,
                        Err(crate::StoreError::Conflict(_)) => continue,
                        Err(e) => panic!("a raise failed: {e:?}"),
                    }
                }
            }
        }));
    }
    for t in tasks {
        t.await.expect("a writer panicked");
    }
    let doc = ok(store.docs("cas", &["n".into()]).await, "read")
        .remove(0)
        .unwrap();
    same(doc.value, b"80".to_vec(), "every raise");
    same(doc.version, 80, "one version per write");
}

/// The whole family, `limit` items a page, keyed so an item given twice
/// (allowed) is checked to be the same.
pub async fn export_study_all(store: &dyn Store, limit: usize) -> Vec<StudyItem> {
    let mut items: BTreeMap<String, StudyItem> = BTreeMap::new();
    let mut cursor = None;
    for _ in 0..100_000 {
        let page = ok(store.export_study(cursor.as_ref(), limit).await, "export");
        for item in page.items {
            let key = format!("{:?}", identity(&item));
            if let Some(seen) = items.get(&key) {
                same(seen, &item, "an item exported twice");
            }
            items.insert(key, item);
        }
        match page.next {
            Some(next) => cursor = Some(next),
            None => return items.into_values().collect(),
        }
    }
    panic!("the export does not end");
}

fn identity(item: &StudyItem) -> (u8, String, Vec<u8>) {
    match item {
        StudyItem::Counts { space, key, .. } => (0, space.clone(), key.clone()),
        StudyItem::List { space, key, .. } => (1, space.clone(), key.clone()),
        StudyItem::Applied { space, token } => (2, space.clone(), token.clone().into_bytes()),
        StudyItem::Doc { space, key, .. } => (3, space.clone(), key.clone().into_bytes()),
        StudyItem::Score {
            space,
            index,
            member,
            ..
        } => (
            4,
            space.clone(),
            format!("{index}\u{0}{member}").into_bytes(),
        ),
    }
}

/// Export gives every piece (in pages of any size), and importing it back
/// over changed data restores it: counters, lists, applied tokens,
/// documents with their versions, scores.
pub async fn study_export_import(store: Arc<dyn Store>) {
    let s = &*store;
    for i in 0..30u32 {
        let key = vec![i as u8, 0xff];
        ok(
            s.tally(
                "ex",
                &tally(
                    &format!("g{i}"),
                    vec![add(&key, i, &[i64::from(i), 1]), add(b"root", 0, &[1])],
                    vec![push(&key, &[i as u8]), push(b"root", &[i as u8])],
                    4,
                ),
            )
            .await,
            "tally",
        );
        ok(
            s.put_docs(
                "pz",
                &[put(&format!("p{i}"), 0, &[i as u8; 3])],
                &[score(
                    "rating",
                    &format!("p{i}"),
                    Some(i64::from(i) * 10 - 100),
                )],
            )
            .await,
            "doc",
        );
    }
    ok(
        s.put_docs("pz", &[put("p0", 1, b"changed")], &[]).await,
        "p0 again",
    );
    let whole = export_study_all(s, 1000).await;
    for limit in [1, 7] {
        same(
            export_study_all(s, limit).await,
            whole.clone(),
            &format!("the export in pages of {limit}"),
        );
    }
    let count = |f: fn(&StudyItem) -> bool| whole.iter().filter(|i| f(i)).count();
    same(
        count(|i| matches!(i, StudyItem::Counts { .. })),
        31,
        "31 counter keys",
    );
    same(
        count(|i| matches!(i, StudyItem::List { .. })),
        31,
        "31 lists",
    );
    same(
        count(|i| matches!(i, StudyItem::Applied { .. })),
        30,
        "30 tokens",
    );
    same(
        count(|i| matches!(i, StudyItem::Doc { .. })),
        30,
        "30 documents",
    );
    same(
        count(|i| matches!(i, StudyItem::Score { .. })),
        30,
        "30 scores",
    );
    assert!(
        whole.iter().any(|i| matches!(i, StudyItem::List { key, items, .. } if key == b"root" && items.len() == 4 && items[0] == [29])),
        "the root list, newest first, cut to 4"
    );
    assert!(
        whole.iter().any(|i| matches!(i, StudyItem::Doc { key, version: 2, value, .. } if key == "p0" && value == b"changed")),
        "p0 at version 2"
    );
    // Change things, then import the export: all as exported again.
    ok(
        s.tally(
            "ex",
            &tally(
                "late",
                vec![add(b"root", 0, &[5]), add(b"new", 1, &[1])],
                vec![push(b"root", b"late")],
                4,
            ),
        )
        .await,
        "late tally",
    );
    ok(
        s.put_docs(
            "pz",
            &[put("p1", 1, b"later")],
            &[score("rating", "p1", Some(9999))],
        )
        .await,
        "later doc",
    );
    ok(s.import_study(&whole).await, "import");
    ok(s.import_study(&whole).await, "import again");
    let again = export_study_all(s, 1000).await;
    let without_late: Vec<StudyItem> = again
        .into_iter()
        .filter(|i| {
            !matches!(i, StudyItem::Counts { key, .. } if key == b"new")
                && !matches!(i, StudyItem::Applied { token, .. } if token == "late")
        })
        .collect();
    same(
        without_late,
        whole,
        "what was exported, restored by the import",
    );
    same(
        ok(
            s.tally("ex", &tally("g3", vec![add(b"root", 0, &[1])], vec![], 4))
                .await,
            "an imported token",
        ),
        false,
        "an imported token counts as applied",
    );
}
