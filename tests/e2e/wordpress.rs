//! A real WordPress for the tests: Debian's `wordpress` package (6.1) on
//! PHP's built-in server, its database a MariaDB of its own in a
//! throwaway folder, one post per address in each editor (block and
//! classic). It fetches the addresses' oEmbed answers itself, as a
//! blogger's WordPress does, when a post is first shown.
//!
//! WordPress may reach the test server and nothing else: its safe fetch
//! allows ports 80, 443 and 8080 only and refuses loopback hosts other
//! than its own, and the must-use plugin in `wordpress/mu-plugins` allows
//! exactly the test server's one address and port.
//!
//! Its files (`wordpress/`): `router.php` for `php -S`, `install.php`
//! (installs and posts), and the plugin. The configuration is written for
//! one run into `/etc/wordpress/` (where Debian's `wp-config.php` looks),
//! under a name of this run's own, and removed with the rest when the
//! [`WordPress`] drops: its servers are killed on every path.

use crate::webdriver::{STARTING, TempDir, free_port, last_words, listens_on};
use serde_json::Value;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Where Debian's package puts WordPress.
const WORDPRESS: &str = "/usr/share/wordpress";
/// What must be installed, and the Debian package that installs it.
const NEEDS: [(&str, &str); 4] = [
    ("/usr/share/wordpress/wp-settings.php", "wordpress"),
    ("/usr/bin/php", "php-cli"),
    ("/usr/sbin/mariadbd", "mariadb-server"),
    (
        "/usr/share/wordpress/wp-content/themes/twentytwentythree/style.css",
        "wordpress-theme-twentytwentythree",
    ),
];

/// The harness's files for WordPress.
fn files() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("wordpress")
}

/// One post of the [`WordPress`].
#[derive(Debug, Clone)]
pub struct Post {
    /// The address pasted into it, on its own line.
    pub address: String,
    /// The editor it was made in: `block` or `classic`.
    pub editor: String,
    /// The post's own address (`?p=ID`).
    pub url: String,
}

/// A running WordPress with its posts.
pub struct WordPress {
    /// Where it serves: `http://127.0.0.1:PORT`.
    pub origin: String,
    /// Its posts: two for each address, one per editor.
    pub posts: Vec<Post>,
    /// `php -S` and MariaDB, once started.
    php: Option<Child>,
    db: Option<Child>,
    config: PathBuf,
    /// The database, the logs (removed after the servers are killed).
    dir: TempDir,
}

impl WordPress {
    /// `Err` says in one line which Debian packages are missing
    /// (`cargo xtask test` installs them).
    pub fn available() -> Result<(), String> {
        let mut missing: Vec<&str> = NEEDS
            .iter()
            .filter(|(path, _)| !Path::new(path).exists())
            .map(|(_, package)| *package)
            .collect();
        if missing.is_empty() && !php_has_mysqli() {
            missing.push("php-mysql");
        }
        if missing.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "Debian's {} not installed here",
                missing.join(", ")
            ))
        }
    }

    /// Starts a WordPress that may fetch from `test_origin` (the test
    /// server, `http://127.0.0.1:PORT`), with a post in each editor for
    /// each of `addresses`. Needs what [`WordPress::available`] checks.
    pub fn start(test_origin: &str, addresses: &[String]) -> Result<WordPress, String> {
        let dir = TempDir::new("wordpress");
        // The configuration's name (letters, digits and `-`, as Debian's
        // wp-config.php wants) is the folder's.
        let name = dir.0.file_name().unwrap().to_string_lossy().into_owned();
        let socket = dir.0.join("db.sock");
        let mut wp = WordPress {
            origin: String::new(),
            posts: Vec::new(),
            php: None,
            db: None,
            config: Path::new("/etc/wordpress").join(format!("config-{name}.php")),
            dir,
        };
        wp.db = Some(start_db(&wp.dir.0, &socket)?);
        let guard = STARTING.lock().unwrap_or_else(|p| p.into_inner());
        let port = free_port();
        wp.origin = format!("http://127.0.0.1:{port}");
        write_config(&wp.config, &wp.origin, &socket, test_origin)?;
        let php = wp.php.insert(
            Command::new("php")
                .args(["-S", &format!("127.0.0.1:{port}"), "-t", WORDPRESS])
                .arg(files().join("router.php"))
                .env("WAITLAB_WP_CONFIG", &name)
                // Requests at once: the page, its styles, its scripts.
                .env("PHP_CLI_SERVER_WORKERS", "4")
                .process_group(0)
                .stdout(log(&wp.dir.0, "php.log")?)
                .stderr(log(&wp.dir.0, "php.log")?)
                .spawn()
                .map_err(|e| format!("php -S: {e}"))?,
        );
        let pid = php.id();
        wait_until(php, "php -S", &wp.dir.0.join("php.log"), || {
            listens_on(pid, port)
        })?;
        drop(guard);
        let out = Command::new("php")
            .arg(files().join("install.php"))
            .arg(&wp.origin)
            .args(addresses)
            .env("WAITLAB_WP_CONFIG", &name)
            .output()
            .map_err(|e| format!("php install.php: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "install.php failed ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let post: Value = serde_json::from_str(line).map_err(|e| format!("{line}: {e}"))?;
            let text = |key: &str| post[key].as_str().unwrap_or_default().to_owned();
            wp.posts.push(Post {
                address: text("address"),
                editor: text("editor"),
                url: text("url"),
            });
        }
        Ok(wp)
    }
}

impl Drop for WordPress {
    fn drop(&mut self) {
        if let Some(php) = &mut self.php {
            // `php -S` forks workers that outlive it: the whole group goes.
            let group = format!("-{}", php.id());
            let _ = Command::new("kill").args(["--", &group]).status();
            let _ = php.wait();
        }
        if let Some(db) = &mut self.db {
            let _ = db.kill();
            let _ = db.wait();
        }
        let _ = std::fs::remove_file(&self.config);
    }
}

/// Whether the PHP here can talk to MariaDB.
fn php_has_mysqli() -> bool {
    Command::new("php")
        .args(["-r", "exit(extension_loaded('mysqli') ? 0 : 1);"])
        .status()
        .is_ok_and(|s| s.success())
}

/// A file in `dir` for a child's output.
fn log(dir: &Path, name: &str) -> Result<Stdio, String> {
    let path = dir.join(name);
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map(Stdio::from)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Waits up to 30 s for `ready`, while `child` runs; `Err` ends with the
/// last lines of its log `said`.
fn wait_until(
    child: &mut Child,
    what: &str,
    said: &Path,
    mut ready: impl FnMut() -> bool,
) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !ready() {
        let why = match child.try_wait() {
            Ok(Some(status)) => format!("exited before it was ready ({status})"),
            _ if Instant::now() >= deadline => "was not ready within 30 s".to_owned(),
            _ => {
                std::thread::sleep(Duration::from_millis(50));
                continue;
            }
        };
        return Err(format!("{what} {why}: {}", last_words(said, 8)));
    }
    Ok(())
}

/// A MariaDB of its own, its data in `dir`, on `socket` only, with an
/// empty `wordpress` database.
fn start_db(dir: &Path, socket: &Path) -> Result<Child, String> {
    let data = dir.join("db");
    // Its temporary tables in a folder of its own: two installs sharing
    // /tmp took each other's ("Unknown table 'mysql.tmp_user_sys'").
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    let tmp = format!("--tmpdir={}", tmp.display());
    let made = Command::new("mariadb-install-db")
        .args(["--no-defaults", "--user=root", "--skip-test-db"])
        .args(["--auth-root-authentication-method=normal"])
        .arg(format!("--datadir={}", data.display()))
        .arg(&tmp)
        .stdout(log(dir, "db.log")?)
        .stderr(log(dir, "db.log")?)
        .status()
        .map_err(|e| format!("mariadb-install-db: {e}"))?;
    if !made.success() {
        return Err(format!(
            "mariadb-install-db failed ({made}): {}",
            last_words(&dir.join("db.log"), 8)
        ));
    }
    let mut db = Command::new("mariadbd")
        .args(["--no-defaults", "--user=root", "--skip-networking"])
        .arg(format!("--datadir={}", data.display()))
        .arg(format!("--socket={}", socket.display()))
        .arg(format!("--pid-file={}", dir.join("db.pid").display()))
        .arg(&tmp)
        .stdout(log(dir, "db.log")?)
        .stderr(log(dir, "db.log")?)
        .spawn()
        .map_err(|e| format!("mariadbd: {e}"))?;
    let created = wait_until(&mut db, "mariadbd", &dir.join("db.log"), || {
        Command::new("mariadb")
            .args(["--no-defaults", "-uroot", "-e", "CREATE DATABASE wordpress"])
            .arg(format!("--socket={}", socket.display()))
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    });
    if let Err(e) = created {
        let _ = db.kill();
        let _ = db.wait();
        return Err(e);
    }
    Ok(db)
}

/// This run's configuration, which Debian's `wp-config.php` reads: the
/// database on `socket`, the site at `origin`, no request off the
/// machine, the test server reachable, and no cron calling back into the
/// server from a page view.
fn write_config(path: &Path, origin: &str, socket: &Path, test_origin: &str) -> Result<(), String> {
    let quoted = |s: &str| Value::from(s).to_string();
    let host = test_origin
        .split("://")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .unwrap_or("127.0.0.1");
    let text = format!(
        "<?php\n// Written by waitlab's e2e harness for one run; removed after it.\n\
         define('DB_NAME', 'wordpress');\ndefine('DB_USER', 'root');\ndefine('DB_PASSWORD', '');\n\
         define('DB_HOST', {db});\ndefine('WP_HOME', {site});\ndefine('WP_SITEURL', {site});\n\
         define('WP_HTTP_BLOCK_EXTERNAL', true);\ndefine('WP_ACCESSIBLE_HOSTS', {host});\n\
         define('WAITLAB_TEST_ORIGIN', {test});\ndefine('WPMU_PLUGIN_DIR', {plugins});\n\
         define('DISABLE_WP_CRON', true);\n",
        db = quoted(&format!("localhost:{}", socket.display())),
        site = quoted(origin),
        host = quoted(host),
        test = quoted(test_origin),
        plugins = quoted(&files().join("mu-plugins").display().to_string()),
    );
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}
