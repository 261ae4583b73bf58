<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="odysseus" tilewidth="64" tileheight="64" tilecount="320" columns="20">
 <image source="odysseus_tiles.png" width="1280" height="1024"/>
</tileset>
