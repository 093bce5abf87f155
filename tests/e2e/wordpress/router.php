<?php
/*
 * Router for PHP's built-in server, as the e2e harness starts it:
 *   WAITLAB_WP_CONFIG=NAME php -S 127.0.0.1:PORT -t /usr/share/wordpress router.php
 * Debian's wp-config.php then reads /etc/wordpress/config-NAME.php (the
 * harness's, for this one run) rather than the file named by the Host
 * header, which every WordPress of this host would share. An existing file
 * or directory is left to the server (static files as they are); any other
 * path goes through WordPress's front controller.
 */
$_SERVER['WORDPRESS_CONFIG'] = getenv( 'WAITLAB_WP_CONFIG' );
$path = urldecode( parse_url( $_SERVER['REQUEST_URI'], PHP_URL_PATH ) );
if ( file_exists( $_SERVER['DOCUMENT_ROOT'] . $path ) ) {
	return false;
}
require $_SERVER['DOCUMENT_ROOT'] . '/index.php';
