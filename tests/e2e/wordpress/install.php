<?php
/*
 * Installs WordPress and creates one block-editor post and one classic post
 * embedding each given address:
 *
 *   php install.php SITE_URL ADDRESS...
 *
 * Debian's wp-config.php reads /etc/wordpress/config-$WAITLAB_WP_CONFIG.php
 * (the e2e harness's, for this run), which must define WP_HOME as SITE_URL
 * (e.g. http://127.0.0.1:8418). Prints one JSON line per post:
 * {"address":…,"editor":"block"|"classic","id":…,"url":"SITE_URL/?p=ID"}.
 */

if ( PHP_SAPI !== 'cli' || $argc < 2 ) {
	fwrite( STDERR, "usage: php install.php SITE_URL ADDRESS...\n" );
	exit( 2 );
}
$site      = rtrim( $argv[1], '/' );
$addresses = array_slice( $argv, 2 );

// Debian's wp-config.php chooses its config file by this, else by the
// Host header (which WordPress also reads while it installs).
$_SERVER['WORDPRESS_CONFIG'] = getenv( 'WAITLAB_WP_CONFIG' );
$_SERVER['HTTP_HOST']        = parse_url( $site, PHP_URL_HOST ) . ':' . parse_url( $site, PHP_URL_PORT );
define( 'WP_INSTALLING', true );
require '/usr/share/wordpress/wp-load.php';
require ABSPATH . 'wp-admin/includes/upgrade.php';

if ( ! defined( 'WP_HOME' ) || WP_HOME !== $site ) {
	fwrite( STDERR, 'install.php: config ' . DEBIAN_FILE . " does not define WP_HOME as $site\n" );
	exit( 1 );
}

// wp_install() probes the site over HTTP to turn on pretty permalinks and
// mails the admin: fail the probes (links stay plain ?p=ID), send no mail.
$offline = function () {
	return new WP_Error( 'waitlab_offline', 'no requests while installing' );
};
add_filter( 'pre_http_request', $offline );
add_filter( 'pre_wp_mail', '__return_false' );
wp_install( 'waitlab e2e', 'admin', 'admin@example.invalid', true, '', 'admin' );
remove_filter( 'pre_http_request', $offline );

// Debian's wordpress package ships no theme; this one is a separate package.
$theme = wp_get_theme( 'twentytwentythree' );
if ( ! $theme->exists() ) {
	fwrite( STDERR, "install.php: theme twentytwentythree missing (apt-get install wordpress-theme-twentytwentythree)\n" );
	exit( 1 );
}
switch_theme( 'twentytwentythree' );

// As the admin, whose unfiltered_html keeps kses off the block markup.
wp_set_current_user( 1 );

foreach ( $addresses as $address ) {
	$contents = array(
		'block'   => '<!-- wp:embed {"url":' . wp_json_encode( $address, JSON_UNESCAPED_SLASHES ) . ',"type":"rich","providerNameSlug":"waitlab"} -->'
			. '<figure class="wp-block-embed is-type-rich is-provider-waitlab wp-block-embed-waitlab"><div class="wp-block-embed__wrapper">'
			. "\n$address\n"
			. '</div></figure><!-- /wp:embed -->',
		'classic' => $address . "\n",
	);
	foreach ( $contents as $editor => $content ) {
		$id = wp_insert_post(
			array(
				'post_title'   => 'Waiting, measured: ' . basename( $address, '.html' ) . " ($editor editor)",
				'post_content' => $content,
				'post_status'  => 'publish',
			),
			true
		);
		if ( is_wp_error( $id ) ) {
			fwrite( STDERR, "install.php: $editor post for $address: " . $id->get_error_message() . "\n" );
			exit( 1 );
		}
		echo wp_json_encode(
			array(
				'address' => $address,
				'editor'  => $editor,
				'id'      => $id,
				'url'     => "$site/?p=$id",
			),
			JSON_UNESCAPED_SLASHES
		), "\n";
	}
}
