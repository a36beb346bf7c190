//! The long mutation run of issue 16, over the command line as users run it: `cargo build
//! --release && cargo run --release --example mutation_campaign -- [ROUNDS] [SEED] [JOBS]`.
//!
//! Each round mutates every seed file once (the samples, scenarios, test data and the shared
//! fixtures of every title: byte flips, truncation, nesting up to 100,000 deep, huge numbers,
//! fragments repeated up to a hundred thousand times (inputs up to 4 MB), deletions, splices,
//! moved lines; `tests/hostile/mutate.rs`) and runs `railnote check`, `replay --keep-going`,
//! `replay --strict-rules`, `fmt`, `convert` both ways, `transcript`, `map`, `chart` and `view`
//! on it. A run that ends by a signal or with an exit code other than 0, 1 or 2 is a crash, one
//! over 2 s of CPU time a hang (killed after 20 s of wall-clock time; a slow run is timed three
//! times and the fastest counts), and more than 100 KB of diagnostics a flood: stderr, and
//! stdout too for `check` and `replay`; `fmt` and `transcript` print the game itself, so their
//! stdout may be up to 100 KB plus four times the input. Failing inputs are kept in
//! `target/mutation-failures/`. Prints the figures; exits 1 if anything failed.
//!
//! The binary is `target/release/railnote` (or `$RAILNOTE_BIN`).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[path = "../tests/hostile/mutate.rs"]
mod mutate;

const SLOW: Duration = Duration::from_secs(2);
const KILL: Duration = Duration::from_secs(20);
const MAX_OUTPUT: usize = 100 * 1024;
const MAX_LEN: usize = 4 << 20;

/// What one command did with one input.
struct Outcome {
    code: Option<i32>,
    /// The CPU time it used where the system says (Linux), else the wall-clock time: the
    /// campaign runs on machines others share, where wall-clock time says little about railnote.
    elapsed: Duration,
    stdout: usize,
    stderr: usize,
    killed: bool,
}

fn run(bin: &Path, args: &[&str]) -> Outcome {
    let start = Instant::now();
    let mut child = Command::new(bin)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the railnote binary runs");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut n = 0;
            let mut buf = [0u8; 65536];
            while let Ok(k) = pipe.read(&mut buf) {
                if k == 0 {
                    break;
                }
                n += k;
            }
            n
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let mut killed = false;
    let mut cpu = None;
    let status = loop {
        // Read before reaping: an exited child keeps its times until it is waited for.
        if let Some(time) = cpu_time(child.id()) {
            cpu = Some(time);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > KILL {
            let _ = child.kill();
            killed = true;
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let elapsed = cpu.unwrap_or_else(|| start.elapsed());
    Outcome {
        code: status.code(),
        elapsed,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        killed,
    }
}

/// User and system time of a running or exited (not yet reaped) process, from
/// `/proc/PID/stat` (fields 14 and 15, in clock ticks of 1/100 s).
fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(16);
    let jobs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bin = std::env::var_os("RAILNOTE_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/release/railnote"));
    assert!(bin.exists(), "{}: build it first", bin.display());
    let files = mutate::seed_files();
    let inputs: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    let scratch = root.join("target/mutation-campaign");
    let failures = root.join("target/mutation-failures");
    std::fs::create_dir_all(&scratch).unwrap();
    std::fs::create_dir_all(&failures).unwrap();
    let total = rounds as usize * inputs.len();
    let next = AtomicUsize::new(0);
    let found: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let stats = Mutex::new((0usize, Duration::ZERO, Duration::ZERO, 0usize, 0usize));
    let start = Instant::now();
    std::thread::scope(|s| {
        for job in 0..jobs {
            let (next, found, stats, inputs, files) = (&next, &found, &stats, &inputs, &files);
            let (bin, scratch, failures) = (&bin, &scratch, &failures);
            s.spawn(move || loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= total {
                    break;
                }
                let (round, i) = (n / inputs.len(), n % inputs.len());
                let mut rng = mutate::Rng::new(seed ^ (n as u64).wrapping_mul(0x9E37_79B9));
                let other = &inputs[rng.below(inputs.len())];
                let (what, mutated) = mutate::mutate(&inputs[i], other, MAX_LEN, &mut rng);
                let extension = files[i].extension().unwrap().to_string_lossy();
                let path = scratch.join(format!("job{job}.{extension}"));
                std::fs::write(&path, &mutated).unwrap();
                let p = path.to_str().unwrap();
                let out_json = scratch.join(format!("job{job}.out.json"));
                let out_rn = scratch.join(format!("job{job}.out.rn"));
                let out_svg = scratch.join(format!("job{job}.out.svg"));
                let out_png = scratch.join(format!("job{job}.out.png"));
                let out_html = scratch.join(format!("job{job}.out.html"));
                let commands: [Vec<&str>; 10] = [
                    vec!["check", p],
                    vec!["replay", p, "--keep-going"],
                    vec!["replay", p, "--strict-rules", "--format", "json"],
                    vec!["fmt", p],
                    vec![
                        "convert",
                        p,
                        "--to",
                        "json",
                        "-o",
                        out_json.to_str().unwrap(),
                    ],
                    vec![
                        "convert",
                        p,
                        "--to",
                        "notation",
                        "-o",
                        out_rn.to_str().unwrap(),
                    ],
                    vec!["transcript", p],
                    vec!["map", p, "-o", out_svg.to_str().unwrap()],
                    vec!["chart", p, "--values", "-o", out_png.to_str().unwrap()],
                    vec!["view", p, "-o", out_html.to_str().unwrap()],
                ];
                for command in &commands {
                    let mut o = run(bin, command);
                    // Time is wall-clock time on a machine others share: a slow run is timed
                    // twice more, and the fastest counts.
                    for _ in 0..2 {
                        if o.killed || o.elapsed <= SLOW {
                            break;
                        }
                        let again = run(bin, command);
                        if again.elapsed < o.elapsed {
                            o = again;
                        }
                    }
                    // `fmt` and `transcript` print the game: proportional to the input.
                    let printed = match command[0] {
                        "fmt" | "transcript" => {
                            o.stderr.max(o.stdout.saturating_sub(4 * mutated.len()))
                        }
                        _ => o.stdout + o.stderr,
                    };
                    let problem = if o.killed {
                        Some(format!("killed after {:.1}s", o.elapsed.as_secs_f64()))
                    } else if !matches!(o.code, Some(0..=2)) {
                        Some(format!("crashed: exit {:?}", o.code))
                    } else if o.elapsed > SLOW {
                        Some(format!("took {:.2}s", o.elapsed.as_secs_f64()))
                    } else if printed > MAX_OUTPUT {
                        Some(format!(
                            "printed {} bytes (stdout {}, stderr {})",
                            printed, o.stdout, o.stderr
                        ))
                    } else {
                        None
                    };
                    {
                        let mut st = stats.lock().unwrap();
                        st.0 += 1;
                        st.1 += o.elapsed;
                        st.2 = st.2.max(o.elapsed);
                        st.3 = st.3.max(printed);
                        st.4 = st.4.max(mutated.len());
                    }
                    if let Some(problem) = problem {
                        let kept = failures.join(format!("{n}.{extension}"));
                        std::fs::write(&kept, &mutated).unwrap();
                        let line = format!(
                            "{} ({what}; round {round}): `railnote {}` {problem}; input kept as {}",
                            files[i].display(),
                            command[0],
                            kept.display()
                        );
                        eprintln!("{line}");
                        found.lock().unwrap().push(line);
                    }
                }
                if (n + 1) % 500 == 0 {
                    eprintln!("{} of {total} inputs", n + 1);
                }
            });
        }
    });
    let (runs, time, slowest, most_output, largest) = *stats.lock().unwrap();
    let found = found.into_inner().unwrap();
    println!(
        "{total} mutated inputs ({} seed files, {rounds} rounds, seed {seed}), {runs} runs in \
         {:.0}s: mean {:.3}s of CPU, slowest {:.2}s, most diagnostics {} bytes, largest input {} bytes; {} \
         problems",
        files.len(),
        start.elapsed().as_secs_f64(),
        time.as_secs_f64() / runs.max(1) as f64,
        slowest.as_secs_f64(),
        most_output,
        largest,
        found.len()
    );
    if !found.is_empty() {
        std::process::exit(1);
    }
}
