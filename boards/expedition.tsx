<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="expedition" tilewidth="64" tileheight="64" tilecount="64" columns="8">
 <image source="expedition_tiles.png" width="512" height="512"/>
</tileset>
